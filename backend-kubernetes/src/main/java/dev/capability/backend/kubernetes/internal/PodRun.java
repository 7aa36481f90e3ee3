package dev.capability.backend.kubernetes.internal;

import dev.capability.backend.support.Deadline;
import dev.capability.backend.support.DirectoryTrees;
import dev.capability.backend.support.PinnedCopy;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One launch in its own pod: the deny-all policy (unless the spec allows the network), the pod,
 * the wait for it to run, the executable and workspace shipped in, the command, the writable roots
 * brought back, and the pod and policy deleted whatever happened. {@link #run} returns once the
 * pod is gone (or after a bounded wait for it), so its processes do not outlive the launch; should
 * this JVM die instead, the pod's {@code activeDeadlineSeconds} ends it and the next backend's
 * {@link LeakSweep} deletes it.
 *
 * <p>The command is {@code timeout -s TERM -k GRACE TIMEOUT sh -c SCRIPT ck-launch}, and its
 * environment, executable and arguments follow first on its stdin ({@link LaunchFrame}), so that
 * none of them is in the exec request's URL: the image's {@code timeout} ends it after the spec's
 * timeout (TERM, then KILL after the grace), and {@code env -i} gives it exactly the spec's
 * environment, dropping the variables the container runtime and Kubernetes add.
 */
final class PodRun {
  /** {@code timeout}'s status when it ended the command with its first signal. */
  static final int TIMEOUT_STATUS = 124;
  /** A command ended by SIGKILL, as {@code timeout} reports it after the grace. */
  static final int KILLED_STATUS = 137;
  /** Pads the input archives to tar's record size, so that a tar reading them never waits for more. */
  private static final int TAR_RECORD = 10_240;
  /** What is kept of a shipping {@code tar}'s stderr, for messages. */
  private static final long TAR_MESSAGE_BYTES = 16 * 1024;
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration EXIT_SLACK = Duration.ofSeconds(10);
  private static final Duration REMOVAL_WAIT = Duration.ofSeconds(60);
  private static final Logger LOG = LoggerFactory.getLogger(PodRun.class);

  private final KubernetesClient client;
  private final String namespace;
  private final KubernetesSettings settings;
  private final PodManifest manifest;
  private final HostJvm jvm;
  private final Supplier<String> runIds;
  private final Shipping shipping;

  PodRun(KubernetesClient client, String namespace, KubernetesSettings settings, HostJvm jvm) {
    this(client, namespace, settings, jvm, () -> UUID.randomUUID().toString(), null);
  }

  /**
   * @param runIds the id of each run: a fresh UUID, but in tests that must know a pod's name ahead
   * @param shipping how archives reach the pod; null for {@code tar -x} through exec. fabric8's mock
   *     API server cannot take an exec's stdin, so tests that run against it ship otherwise.
   */
  PodRun(
      KubernetesClient client,
      String namespace,
      KubernetesSettings settings,
      HostJvm jvm,
      Supplier<String> runIds,
      @Nullable Shipping shipping) {
    this.runIds = Objects.requireNonNull(runIds, "runIds");
    this.shipping = shipping == null ? this::upload : shipping;
    this.client = Objects.requireNonNull(client, "client");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.manifest = new PodManifest(settings);
    this.jvm = Objects.requireNonNull(jvm, "jvm");
  }

  /** Runs the spec; see the class comment. */
  LaunchResult run(LaunchSpec spec) {
    String launchName = spec.executable().path().toString();
    if (spec.network() == NetworkMode.FILTERED) {
      throw new NetworkFilterUnavailableException(
          "the kubernetes backend cannot confine "
              + launchName
              + " to the egress proxy: the proxy's socket is on this host and no pod can reach it;"
              + " run it with network none, or on a local backend");
    }
    if (spec.repository().isPresent() && spec.workspace().isEmpty()) {
      throw new LaunchFailedException(
          "the kubernetes backend cannot bind the repository "
              + spec.repository().get()
              + " into a pod; it runs a repository only when it is shipped (LaunchSpec.workspace())");
    }
    spec.requireExactStrings(launchName);
    String executableName = executableName(spec);
    byte[] frame = LaunchFrame.encode(spec, PodManifest.EXECUTABLE_DIRECTORY + "/" + executableName);
    String runId = runIds.get();
    String name = PodManifest.name(runId);
    Map<String, String> labels = Labels.forRun(runId, jvm);
    Optional<NetworkPolicy> policy = manifest.denyAll(namespace, runId, labels, spec.network());
    Pod pod = manifest.pod(namespace, runId, labels, spec);
    Path scratch = scratchDirectory();
    try {
      // The policy first: it selects the pod by label from the pod's first instant.
      policy.ifPresent(p -> create("network policy", () -> client.network().v1().networkPolicies().inNamespace(namespace).resource(p).create()));
      create("pod", () -> client.pods().inNamespace(namespace).resource(pod).create());
      awaitRunning(name, launchName);
      shipExecutable(name, spec, executableName, scratch);
      Optional<ShippedWorkspace> workspace = spec.workspace();
      if (workspace.isPresent()) {
        shipWorkspace(name, spec, workspace.get());
      }
      Execution execution = execute(name, spec, frame);
      if (workspace.isPresent()) {
        bringBack(name, spec, workspace.get(), scratch);
      }
      return execution.result(Instant.now());
    } finally {
      delete(name, policy.isPresent());
      deleteScratch(scratch);
    }
  }

  /** The shipped executable's file name; one with {@code =} would read as a variable to {@code env}. */
  static String executableName(LaunchSpec spec) {
    Path fileName = spec.executable().path().getFileName();
    String name = fileName == null ? "" : fileName.toString();
    if (name.isEmpty() || name.indexOf('=') >= 0) {
      throw new LaunchFailedException(
          "the kubernetes backend cannot ship the executable "
              + spec.executable().path()
              + ": its file name is empty or contains '=', which env would read as a variable");
    }
    return name;
  }

  private interface Creation {
    void create();
  }

  private void create(String what, Creation creation) {
    try {
      creation.create();
    } catch (KubernetesClientException e) {
      throw new LaunchFailedException(
          "the cluster refused to create the run's " + what + " in namespace " + namespace + ": " + e.getMessage(), e);
    }
  }

  private PodResource pod(String name) {
    return client.pods().inNamespace(namespace).withName(name);
  }

  /**
   * Waits until the pod's container runs, at most the start timeout.
   *
   * @throws LaunchFailedException when it ended, vanished or did not start in time, with its status
   */
  void awaitRunning(String name, String launchName) {
    Deadline deadline = Deadline.after(settings.startTimeout());
    while (true) {
      Pod current;
      try {
        current = pod(name).get();
      } catch (KubernetesClientException e) {
        throw new LaunchFailedException("reading pod " + name + " failed: " + e.getMessage(), e);
      }
      if (current == null) {
        throw new LaunchFailedException("pod " + name + " for " + launchName + " vanished before it started");
      }
      PodStatus status = current.getStatus();
      String phase = status == null || status.getPhase() == null ? "Pending" : status.getPhase();
      if (phase.equals("Running") && containerRunning(status)) {
        return;
      }
      if (phase.equals("Succeeded") || phase.equals("Failed")) {
        throw new LaunchFailedException("pod " + name + " for " + launchName + " ended before it ran anything: " + describe(status));
      }
      if (deadline.passed()) {
        throw new LaunchFailedException(
            "pod "
                + name
                + " for "
                + launchName
                + " did not start within "
                + settings.startTimeout().toSeconds()
                + " s ("
                + KubernetesSettings.START_TIMEOUT
                + "): "
                + describe(status));
      }
      sleep(POLL);
    }
  }

  private static boolean containerRunning(PodStatus status) {
    List<ContainerStatus> containers = status.getContainerStatuses();
    return containers != null
        && containers.stream()
            .anyMatch(c -> PodManifest.CONTAINER.equals(c.getName()) && c.getState() != null && c.getState().getRunning() != null);
  }

  /** The phase, and why the container waits or ended, for messages. */
  static String describe(@Nullable PodStatus status) {
    if (status == null) {
      return "no status yet (not scheduled)";
    }
    StringBuilder text = new StringBuilder("phase ").append(status.getPhase() == null ? "Pending" : status.getPhase());
    if (status.getReason() != null) {
      text.append(", ").append(status.getReason());
    }
    if (status.getMessage() != null) {
      text.append(": ").append(status.getMessage());
    }
    if (status.getContainerStatuses() != null) {
      for (ContainerStatus container : status.getContainerStatuses()) {
        if (container.getState() != null && container.getState().getWaiting() != null) {
          text.append("; container waiting: ").append(container.getState().getWaiting().getReason());
          if (container.getState().getWaiting().getMessage() != null) {
            text.append(" (").append(container.getState().getWaiting().getMessage()).append(')');
          }
        }
        if (container.getState() != null && container.getState().getTerminated() != null) {
          text.append("; container terminated: ").append(container.getState().getTerminated().getReason());
        }
      }
    }
    return text.toString();
  }

  private static Path scratchDirectory() {
    try {
      return Files.createTempDirectory("ck-kubernetes-");
    } catch (IOException e) {
      throw new LaunchFailedException("cannot create a scratch directory for the run: " + e, e);
    }
  }

  private static void deleteScratch(Path scratch) {
    try {
      DirectoryTrees.delete(scratch);
    } catch (IOException e) {
      LOG.debug("could not delete {}: {}", scratch, e.getMessage());
    }
  }

  /** Ships the pinned executable, its bytes checked against the pin, as the one entry of a tar. */
  private void shipExecutable(String name, LaunchSpec spec, String executableName, Path scratch) {
    Path copy = scratch.resolve("executable");
    PinnedCopy.copy(spec.executable(), copy);
    long size;
    try {
      size = Files.size(copy);
    } catch (IOException e) {
      throw new LaunchFailedException("cannot read the executable's copy: " + e, e);
    }
    shipping.ship(
        name,
        "the executable " + spec.executable().path(),
        PodManifest.EXECUTABLE_DIRECTORY,
        out -> {
          TarArchiveOutputStream tar = new TarArchiveOutputStream(out);
          tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
          TarArchiveEntry entry = new TarArchiveEntry(executableName);
          entry.setSize(size);
          entry.setMode(0555);
          entry.setIds((int) PodManifest.NOBODY, (int) PodManifest.NOBODY);
          tar.putArchiveEntry(entry);
          Files.copy(copy, tar);
          tar.closeArchiveEntry();
          tar.finish();
        });
  }

  /** Ships the repository into the workspace volume at the repository's path. */
  private void shipWorkspace(String name, LaunchSpec spec, ShippedWorkspace workspace) {
    ShippedWorkspace.Owner nobody = new ShippedWorkspace.Owner((int) PodManifest.NOBODY, (int) PodManifest.NOBODY);
    shipping.ship(
        name,
        "the workspace",
        PodManifest.workspacePath(spec.repository().orElseThrow()),
        out -> workspace.writeInput(out, nobody, nobody));
  }

  /** Writes one archive. */
  interface ArchiveWriter {
    void write(OutputStream out) throws IOException;
  }

  /** Unpacks an archive into a directory of the pod. */
  interface Shipping {
    /**
     * @param pod the pod's name
     * @param what what the archive holds, for messages
     * @param directory where it is unpacked, in the pod
     * @throws LaunchFailedException when it could not be shipped
     */
    void ship(String pod, String what, String directory, ArchiveWriter archive);
  }

  /**
   * Runs {@code tar -x -f - -C directory} in the pod with the archive on its stdin, within the
   * transfer timeout; the archive is padded to tar's record size and stdin then closed.
   */
  private void upload(String name, String what, String directory, ArchiveWriter archive) {
    BoundedSink errors = new BoundedSink(TAR_MESSAGE_BYTES, () -> {});
    ExecWatch watch;
    try {
      watch =
          pod(name)
              .redirectingInput()
              .writingOutput(OutputStream.nullOutputStream())
              .writingError(errors)
              .exec("tar", "-x", "-f", "-", "-C", directory);
    } catch (KubernetesClientException e) {
      throw new LaunchFailedException("the cluster refused to exec tar in pod " + name + " to ship " + what + ": " + e.getMessage(), e);
    }
    try (watch) {
      CompletableFuture.delayedExecutor(settings.transferTimeout().toMillis(), TimeUnit.MILLISECONDS).execute(watch::close);
      Exception sending = null;
      try (OutputStream in = watch.getInput()) {
        PaddedOutput padded = new PaddedOutput(in);
        archive.write(padded);
        padded.padTo(TAR_RECORD);
      } catch (IOException | KubernetesClientException e) {
        // tar may exit once it read the end-of-archive blocks, before the padding is sent; its
        // status says whether it had all of the archive.
        sending = e;
      }
      int status = exitStatus(watch, settings.transferTimeout(), "tar -x of " + what);
      if (status != 0) {
        throw new LaunchFailedException(
            "shipping "
                + what
                + " into pod "
                + name
                + " failed: tar -x exited with "
                + status
                + ": "
                + errors.captured().text().strip()
                + (sending == null ? "" : "; sending the archive failed: " + sending.getMessage())
                + " (the image "
                + settings.image()
                + " must provide GNU tar)");
      }
    }
  }


  /** What the command did, until its result is made. */
  private record Execution(
      OptionalInt exitCode,
      boolean timedOut,
      boolean statusLost,
      boolean outputLimitHit,
      BoundedSink stdout,
      BoundedSink stderr,
      Instant startedAt) {
    LaunchResult result(Instant finishedAt) {
      String termination =
          statusLost || outputLimitHit ? "pod-deleted" : timedOut ? "timeout-signal" : "none";
      return new LaunchResult(
          exitCode, timedOut, outputLimitHit, stdout.captured(), stderr.captured(), startedAt, finishedAt, termination);
    }
  }

  /**
   * Runs the command and waits for it: at most its timeout and grace (which the pod's {@code
   * timeout} enforces) and a slack; past that it counts as timed out and is ended with the pod.
   */
  private Execution execute(String name, LaunchSpec spec, byte[] frame) {
    AtomicReference<ExecWatch> running = new AtomicReference<>();
    CompletableFuture<Integer> ended = new CompletableFuture<>();
    Runnable endIt = () -> {
      ended.complete(-1);
      ExecWatch watch = running.get();
      if (watch != null) {
        watch.close();
      }
    };
    BoundedSink stdout = new BoundedSink(spec.maxOutputBytes(), endIt);
    BoundedSink stderr = new BoundedSink(spec.maxOutputBytes(), endIt);
    Instant startedAt = Instant.now();
    Deadline timeout = Deadline.after(spec.timeout());
    ExecWatch watch;
    try {
      watch =
          pod(name)
              .redirectingInput()
              .writingOutput(stdout)
              .writingError(stderr)
              .exec(LaunchFrame.command(spec).toArray(String[]::new));
    } catch (KubernetesClientException e) {
      throw new LaunchFailedException(
          "the cluster refused to exec " + spec.executable().path() + " in pod " + name + ": " + e.getMessage(), e);
    }
    running.set(watch);
    try (watch) {
      feed(watch, frame, spec.stdin());
      Duration bound = spec.timeout().plus(spec.terminationGrace()).plus(EXIT_SLACK);
      OptionalInt exit;
      boolean backstop = false;
      try {
        // Past the output bound the command is ended with its pod: its status is not waited for.
        Object status =
            CompletableFuture.anyOf(watch.exitCode(), ended).get(bound.toMillis(), TimeUnit.MILLISECONDS);
        exit = status instanceof Integer code && code >= 0 ? OptionalInt.of(code) : OptionalInt.empty();
      } catch (TimeoutException e) {
        exit = OptionalInt.empty();
        backstop = true;
      } catch (ExecutionException e) {
        exit = OptionalInt.empty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LaunchFailedException("interrupted while " + spec.executable().path() + " ran in pod " + name, e);
      }
      boolean outputLimit = stdout.limitExceeded() || stderr.limitExceeded();
      boolean timedOut = backstop || (!outputLimit && endedByTimeout(timeout.passed(), exit));
      // Without a status (the stream ended or hung without one) the command may still run: it
      // ends with its pod.
      return new Execution(exit, timedOut, exit.isEmpty(), outputLimit, stdout, stderr, startedAt);
    }
  }

  /**
   * Whether the pod's {@code timeout} ended the command: it reports 124 (ended by TERM) or 137
   * (KILL after the grace), and only once the spec's timeout has passed; the same status earlier is
   * the command's own.
   */
  static boolean endedByTimeout(boolean timeoutPassed, OptionalInt exit) {
    return timeoutPassed
        && exit.isPresent()
        && (exit.getAsInt() == TIMEOUT_STATUS || exit.getAsInt() == KILLED_STATUS);
  }

  /**
   * Writes the launch frame, then the spec's input, to the exec's stdin, each flushed as one
   * message, and closes it. A command that exits without reading all of its input closes the
   * stream, which is not a failure of the launch; a frame that did not arrive whole makes the
   * script exit without running anything.
   */
  private static void feed(ExecWatch watch, byte[] frame, Optional<byte[]> input) {
    try (OutputStream stdin = watch.getInput()) {
      stdin.write(frame);
      stdin.flush();
      if (input.isPresent()) {
        stdin.write(input.get());
        stdin.flush();
      }
    } catch (IOException | KubernetesClientException e) {
      LOG.debug("the command's stdin closed early: {}", e.getMessage());
    }
  }

  /**
   * Brings the writable roots back with {@code tar -c}, into a private file of at most the
   * workspace's return bound (and one byte, so an oversized archive shows), and hands it to the
   * kernel, which checks it before anything of it is applied.
   */
  private void bringBack(String name, LaunchSpec spec, ShippedWorkspace workspace, Path scratch) {
    if (workspace.writableRoots().isEmpty()) {
      receive(name, workspace, new ByteArrayInputStream(new byte[2 * 512]));
      return;
    }
    List<String> argv = new ArrayList<>(List.of("tar", "-c", "-f", "-", "-C", PodManifest.workspacePath(spec.repository().orElseThrow()), "--"));
    for (Path root : workspace.writableRoots()) {
      argv.add(root.toString().isEmpty() ? "." : root.toString());
    }
    Path archive = scratch.resolve("writable-roots.tar");
    BoundedSink errors = new BoundedSink(TAR_MESSAGE_BYTES, () -> {});
    try (OutputStream file = Files.newOutputStream(archive)) {
      AtomicReference<ExecWatch> running = new AtomicReference<>();
      LimitedOutput limited =
          new LimitedOutput(file, saturatedIncrement(workspace.maxReturnBytes()), () -> {
            ExecWatch watch = running.get();
            if (watch != null) {
              watch.close();
            }
          });
      ExecWatch watch;
      try {
        watch = pod(name).writingOutput(limited).writingError(errors).exec(argv.toArray(String[]::new));
      } catch (KubernetesClientException e) {
        throw new LaunchFailedException("the cluster refused to exec tar in pod " + name + " to bring back the writable roots: " + e.getMessage(), e);
      }
      running.set(watch);
      try (watch) {
        // tar's status is not the archive's verdict: a root the command removed makes it exit 2
        // after archiving the others. The kernel checks what arrived.
        exitStatus(watch, settings.transferTimeout(), "tar -c of the writable roots");
      }
    } catch (IOException e) {
      throw new LaunchFailedException("bringing the writable roots back from pod " + name + " failed: " + e, e);
    }
    try (InputStream in = Files.newInputStream(archive)) {
      receive(name, workspace, in);
    } catch (IOException e) {
      throw new LaunchFailedException("reading the writable roots of pod " + name + " failed: " + e, e);
    }
  }

  private static void receive(String name, ShippedWorkspace workspace, InputStream archive) {
    try {
      workspace.receiveWritableRoots(archive);
    } catch (IOException e) {
      throw new LaunchFailedException("handing the writable roots of pod " + name + " to the kernel failed: " + e, e);
    }
  }

  private static long saturatedIncrement(long n) {
    return n == Long.MAX_VALUE ? n : n + 1;
  }

  private static int exitStatus(ExecWatch watch, Duration bound, String what) {
    try {
      Integer status = watch.exitCode().get(bound.toMillis(), TimeUnit.MILLISECONDS);
      return status == null ? -1 : status;
    } catch (TimeoutException e) {
      throw new LaunchFailedException(what + " did not end within " + bound.toSeconds() + " s (" + KubernetesSettings.TRANSFER_TIMEOUT + ")", e);
    } catch (ExecutionException e) {
      throw new LaunchFailedException(what + " failed: " + e.getCause(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchFailedException("interrupted during " + what, e);
    }
  }

  /** Deletes the pod at once (no grace) and the policy, and waits, bounded, until the pod is gone. */
  void delete(String name, boolean policy) {
    try {
      pod(name).withGracePeriod(0).delete();
    } catch (KubernetesClientException e) {
      LOG.debug("deleting pod {} failed: {}", name, e.getMessage());
    }
    if (policy) {
      try {
        client.network().v1().networkPolicies().inNamespace(namespace).withName(name).delete();
      } catch (KubernetesClientException e) {
        LOG.debug("deleting network policy {} failed: {}", name, e.getMessage());
      }
    }
    Deadline deadline = Deadline.after(REMOVAL_WAIT);
    while (!deadline.passed()) {
      try {
        if (pod(name).get() == null) {
          return;
        }
      } catch (KubernetesClientException e) {
        LOG.debug("reading pod {} failed: {}", name, e.getMessage());
        return;
      }
      sleep(POLL);
    }
    LOG.debug("pod {} was not gone after {}", name, REMOVAL_WAIT);
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchFailedException("interrupted while waiting for the cluster", e);
    }
  }

  /** Counts what passes and pads it with zeros to a multiple of a record size. */
  private static final class PaddedOutput extends OutputStream {
    private final OutputStream out;
    private long written;

    PaddedOutput(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      written++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
      written += length;
    }

    /** Writes zeros up to the next multiple of {@code record}; does not close. */
    void padTo(int record) throws IOException {
      int rest = (int) (written % record);
      if (rest != 0) {
        out.write(new byte[record - rest]);
        written += record - rest;
      }
      out.flush();
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() {
      // The caller closes the exec's stdin once the padding is written.
    }
  }

  /** Writes through at most {@code max} bytes, then drops the rest and calls {@code onLimit} once. */
  private static final class LimitedOutput extends OutputStream {
    private final OutputStream out;
    private final long max;
    private final Runnable onLimit;
    private long written;
    private boolean exceeded;

    LimitedOutput(OutputStream out, long max, Runnable onLimit) {
      this.out = out;
      this.max = max;
      this.onLimit = onLimit;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
      int keep = (int) Math.min(length, max - written);
      out.write(bytes, offset, keep);
      written += keep;
      if (keep < length && !exceeded) {
        exceeded = true;
        onLimit.run();
      }
    }
  }
}
