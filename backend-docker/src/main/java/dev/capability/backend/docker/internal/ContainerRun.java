package dev.capability.backend.docker.internal;

import dev.capability.backend.support.DirectoryTrees;
import dev.capability.backend.support.Deadline;
import dev.capability.backend.support.EgressRelay;
import dev.capability.backend.support.FileSizeSignal;
import dev.capability.backend.support.PinnedCopy;
import dev.capability.backend.support.WriteBudget;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.CreateContainerResponse;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.LogConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.Ulimit;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ResourceBound;
import dev.capability.kernel.api.network.EgressSandbox;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One launch: create, attach, start, wait, remove. The container is removed whatever happens, and
 * {@link #run} returns only once it is gone: its processes cannot outlive the launch.
 *
 * <p>The entrypoint is {@code ck-launch tini -- executable arguments...}, and the environment is
 * never part of it: stdin always starts with the spec's environment as a block (see {@link
 * #environmentBlock}), then the spec's input. {@code ck-launch} reads exactly the block and
 * executes tini with exactly that environment, which drops the variables the daemon always adds
 * ({@code PATH}, {@code HOSTNAME}, {@code HOME}); so no value, an operator's token included, is in
 * the container's configuration ({@code docker inspect}) or in any process's argv. tini, as PID 1,
 * forwards signals to the command and reports a death by signal N as 128 + N.
 *
 * <p>With filtered network the container has network {@code none} and tini starts the egress
 * relay ({@code egress-relay /run/capability-egress/proxy.sock 3128 executable executable
 * arguments...}), bound read-only with the proxy's socket, which listens on the container's
 * loopback and executes the command in its own process.
 */
final class ContainerRun {
  /** The exit status of a process ended by SIGKILL, as the daemon reports it. */
  private static final int SIGKILL_EXIT = 137;
  /** How long the daemon's OOM event may trail a SIGKILLed container's exit. */
  private static final Duration OOM_EVENT_WAIT = Duration.ofSeconds(2);
  private static final Duration OOM_EVENT_POLL = Duration.ofMillis(50);
  private static final Logger LOG = LoggerFactory.getLogger(ContainerRun.class);
  private static final Duration ATTACH_WAIT = Duration.ofSeconds(30);
  private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(5);
  private static final Duration REMOVAL_WAIT = Duration.ofSeconds(30);
  private static final Duration KILL_WAIT = Duration.ofSeconds(60);

  /**
   * Inodes of the private {@code /tmp}: a size in bytes alone does not bound empty files, and a
   * tmpfs without {@code nr_inodes} allows half the host's memory pages of them.
   */
  static final long TMP_INODES = 16_384;

  private final DockerClient client;
  private final DockerSettings settings;
  private final ContainerLayout layout;
  private final HostJvm jvm;
  private final String imageId;
  private final ExecLimit limit;
  private final boolean projectSeccomp;
  private final Optional<EgressRelay> relay;
  private final boolean remote;

  /**
   * @param imageId the image's id ({@code sha256:...}) as resolved when the backend was created:
   *     containers start from exactly that image, even if its tag is moved afterwards
   * @param limit what one {@code execve} in the daemon's containers accepts; a spec over it is
   *     refused before anything is created
   * @param projectSeccomp whether each container gets the project's seccomp profile ({@link
   *     SeccompProfile}) in place of the daemon's default; only where the daemon supports seccomp
   *     and per-rule errors
   * @param relay the egress relay for specs with filtered network; without it they are refused
   * @param remote whether the daemon is remote: then nothing of this host is bound, and the
   *     executable and the workspace are shipped through the archive endpoint ({@link ShippedRun})
   */
  ContainerRun(
      DockerClient client,
      DockerSettings settings,
      HostJvm jvm,
      String imageId,
      ExecLimit limit,
      boolean projectSeccomp,
      Optional<EgressRelay> relay,
      boolean remote) {
    this.client = Objects.requireNonNull(client, "client");
    this.remote = remote;
    this.relay = Objects.requireNonNull(relay, "relay");
    this.projectSeccomp = projectSeccomp;
    this.limit = Objects.requireNonNull(limit, "limit");
    this.imageId = Objects.requireNonNull(imageId, "imageId");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.layout = new ContainerLayout(settings);
    this.jvm = Objects.requireNonNull(jvm, "jvm");
  }

  /** Runs the spec; see the class comment. */
  LaunchResult run(LaunchSpec spec) {
    if (remote) {
      return new ShippedRun(this, client, settings, jvm).run(spec);
    }
    List<String> entrypoint = entrypoint(spec, spec.executable().path().toString());
    limit.check(spec.executable().path().toString(), entrypoint, spec.environment());
    byte[] stdin = stdin(spec);
    String runId = UUID.randomUUID().toString();
    Path runDirectory = createRunDirectory(runId);
    try {
      Path copy = runDirectory.resolve("executable");
      PinnedCopy.copy(spec.executable(), copy);
      List<Mount> mounts = new ArrayList<>(layout.plan(spec, copy, MountTable.current()));
      if (spec.egressSocket().isPresent()) {
        mounts.addAll(layout.egressMounts(spec.egressSocket().get(), egressRelay(spec)));
      }
      String id = create(spec, entrypoint, runId, mounts);
      try {
        return startAndWait(spec, id, stdin, true);
      } finally {
        remove(id);
      }
    } finally {
      deleteTree(runDirectory);
    }
  }

  Path createRunDirectory(String runId) {
    try {
      return Files.createDirectory(
          settings.workDirectory().resolve("ck-docker-" + runId),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    } catch (IOException e) {
      throw new LaunchFailedException(
          "cannot create a run directory in " + settings.workDirectory() + ": " + e, e);
    }
  }

  private Path egressRelay(LaunchSpec spec) {
    return relay
        .orElseThrow(
            () ->
                new NetworkFilterUnavailableException(
                    "the docker backend has no egress relay to run "
                        + spec.executable().path()
                        + " with filtered network; see its FILTERED_EGRESS diagnostic"))
        .executable();
  }

  /**
   * The entrypoint; see the class comment. With filtered network, tini starts the egress relay,
   * which executes the command with the same argv. It holds no environment value.
   *
   * @param executable where the executable is inside the container
   */
  List<String> entrypoint(LaunchSpec spec, String executable) {
    List<String> argv = new ArrayList<>(List.of(settings.launcher(), settings.init(), "--"));
    List<String> command = new ArrayList<>();
    command.add(executable);
    command.addAll(spec.arguments());
    if (spec.network() == NetworkMode.FILTERED) {
      command =
          EgressRelay.command(
              EgressRelay.SANDBOX_PATH,
              EgressSandbox.SOCKET,
              spec.executable().path().toString(),
              command);
    }
    argv.addAll(command);
    for (String arg : argv) {
      if (arg.indexOf('\0') >= 0) {
        throw new LaunchFailedException("an argument contains a NUL byte");
      }
    }
    return argv;
  }

  /**
   * What {@code ck-launch} reads first from stdin: the length in bytes of the entries as ASCII
   * decimal and a newline, then each {@code NAME=VALUE} of the spec's environment, sorted by name,
   * ended by a NUL byte.
   */
  static byte[] environmentBlock(Map<String, String> environment) {
    ByteArrayOutputStream entries = new ByteArrayOutputStream();
    environment.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              if (e.getKey().isEmpty() || e.getKey().indexOf('=') >= 0) {
                throw new LaunchFailedException(
                    "environment variable name '" + e.getKey() + "' is empty or contains '='");
              }
              String entry = e.getKey() + "=" + e.getValue();
              if (entry.indexOf('\0') >= 0) {
                throw new LaunchFailedException(
                    "environment variable " + e.getKey() + " contains a NUL byte");
              }
              entries.writeBytes(entry.getBytes(StandardCharsets.UTF_8));
              entries.write(0);
            });
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    block.writeBytes((entries.size() + "\n").getBytes(StandardCharsets.US_ASCII));
    block.writeBytes(entries.toByteArray());
    return block.toByteArray();
  }

  /** Everything the container reads on stdin: the environment block, then the spec's input. */
  static byte[] stdin(LaunchSpec spec) {
    ByteArrayOutputStream stdin = new ByteArrayOutputStream();
    stdin.writeBytes(environmentBlock(spec.environment()));
    spec.stdin().ifPresent(stdin::writeBytes);
    return stdin.toByteArray();
  }

  String create(LaunchSpec spec, List<String> entrypoint, String runId, List<Mount> mounts) {
    HostConfig host =
        HostConfig.newHostConfig()
            .withReadonlyRootfs(true)
            .withCapDrop(Capability.ALL)
            .withSecurityOpts(securityOptions(spec))
            // Filtered network has no interface either: its only way out is the relay's socket.
            .withNetworkMode(spec.network() == NetworkMode.HOST ? settings.network() : "none")
            .withPidsLimit(settings.pids())
            .withMemory(settings.memoryBytes())
            .withMemorySwap(settings.memoryBytes())
            .withNanoCPUs(settings.nanoCpus())
            .withTmpFs(
                Map.of(
                    "/tmp",
                    "rw,noexec,nosuid,nodev,size="
                        + settings.tmpSizeBytes()
                        + ",nr_inodes="
                        + TMP_INODES))
            // RLIMIT_FSIZE, soft and hard, of every process: the largest file it may write or extend,
            // sparse files included (beyond it EFBIG, or SIGXFSZ).
            .withUlimits(List.of(new Ulimit("fsize", spec.maxFileBytes(), spec.maxFileBytes())))
            .withShmSize(settings.shmSizeBytes())
            .withIpcMode("private")
            .withPrivileged(false)
            .withInit(false)
            .withMounts(mounts)
            .withLogConfig(logConfig());
    try {
      CreateContainerResponse created =
          client
              .createContainerCmd(imageId)
              .withName("ck-" + runId)
              .withEntrypoint(entrypoint)
              .withCmd(List.of())
              .withEnv(List.of())
              .withUser(settings.uid() + ":" + settings.gid())
              .withWorkingDir(spec.workingDirectory().toString())
              .withLabels(Labels.forRun(runId, jvm))
              .withHostName("sandbox")
              .withTty(false)
              .withAttachStdin(true)
              .withStdinOpen(true)
              .withStdInOnce(true)
              .withAttachStdout(true)
              .withAttachStderr(true)
              .withHostConfig(host)
              .exec();
      return created.getId();
    } catch (DockerException e) {
      throw new LaunchFailedException(
          "the daemon refused to create the container for "
              + spec.executable().path()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** no-new-privileges, and the project's seccomp profile for the spec's network when enabled. */
  List<String> securityOptions(LaunchSpec spec) {
    List<String> options = new ArrayList<>(List.of("no-new-privileges"));
    if (projectSeccomp) {
      options.add("seccomp=" + SeccompProfile.json(spec.network()));
    }
    return options;
  }

  private LogConfig logConfig() {
    return switch (settings.logDriver()) {
      case "none" -> new LogConfig(LogConfig.LoggingType.NONE, null);
      case "local" ->
          new LogConfig(LogConfig.LoggingType.LOCAL, Map.of("max-size", settings.logMaxSize()));
      default ->
          new LogConfig(
              LogConfig.LoggingType.JSON_FILE,
              Map.of("max-size", settings.logMaxSize(), "max-file", "1"));
    };
  }

  /**
   * @param watchWrites whether the spec's writable roots on this host are measured against its
   *     write budget; not for a remote daemon, whose writes land on its own host
   */
  LaunchResult startAndWait(LaunchSpec spec, String id, byte[] stdinBytes, boolean watchWrites) {
    AtomicBoolean outputLimitHit = new AtomicBoolean();
    OutputCapture output =
        new OutputCapture(
            spec.maxOutputBytes(),
            () -> {
              outputLimitHit.set(true);
              signalAsync(id, "KILL");
            });
    // Measured before the container starts; the budget's watcher kills it like the output bound.
    try (WriteBudget writeBudget =
            WriteBudget.watch(
                watchWrites ? spec : spec.toBuilder().writableRoots(List.of()).build(),
                () -> signalAsync(id, "KILL"));
        OutputCapture attached =
            client
                .attachContainerCmd(id)
                .withStdOut(true)
                .withStdErr(true)
                .withFollowStream(true)
                .withLogs(false)
                .exec(output);
        StdinFeed stdin = StdinFeed.open(client, id, stdinBytes)) {
      if (!attached.awaitStarted(ATTACH_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new LaunchFailedException("the daemon did not attach to container " + id);
      }
      stdin.awaitAttached(ATTACH_WAIT);
      try {
        client.startContainerCmd(id).exec();
        stdin.containerStarted();
        if (writeBudget.exceeded()) {
          // Exceeded before the start (the roots could not be measured): its kill found nothing.
          signal(id, "KILL");
        }
      } catch (DockerException e) {
        throw new LaunchFailedException(
            "the daemon could not start " + spec.executable().path() + ": " + e.getMessage(), e);
      }
      Instant startedAt = Instant.now();
      Deadline deadline = Deadline.after(spec.timeout());
      String termination = "none";
      boolean timedOut = false;
      try (WaitContainerResultCallback wait =
          client.waitContainerCmd(id).exec(new WaitContainerResultCallback())) {
        boolean exited = wait.awaitCompletion(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        if (!exited) {
          timedOut = !outputLimitHit.get();
          signal(id, "TERM");
          termination = "container-term";
          exited = wait.awaitCompletion(spec.terminationGrace().toNanos(), TimeUnit.NANOSECONDS);
          if (!exited) {
            signal(id, "KILL");
            termination = "container-kill";
            if (!wait.awaitCompletion(KILL_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
              throw new LaunchFailedException(
                  "container " + id + " did not end within " + KILL_WAIT + " of KILL");
            }
          }
        }
        if (outputLimitHit.get()) {
          termination = "output-limit-kill";
        } else if (writeBudget.exceeded() && termination.equals("none")) {
          termination = "write-budget-kill";
        }
        OptionalInt exitCode = exitCode(wait);
        boolean outOfMemory = outOfMemoryKilled(id, exitCode, termination);
        if (outOfMemory && termination.equals("none")) {
          termination = "oom-kill";
        }
        if (!output.awaitCompletion(OUTPUT_DRAIN.toNanos(), TimeUnit.NANOSECONDS)) {
          output.markIncomplete();
        }
        EnumSet<ResourceBound> boundsHit = EnumSet.noneOf(ResourceBound.class);
        if (writeBudget.finish()) {
          boundsHit.add(ResourceBound.WRITE_BUDGET);
        }
        if (outOfMemory) {
          boundsHit.add(ResourceBound.MEMORY);
        }
        if (FileSizeSignal.endedBy(exitCode)) {
          boundsHit.add(ResourceBound.FILE_SIZE);
        }
        return new LaunchResult(
            exitCode,
            timedOut,
            outputLimitHit.get(),
            boundsHit,
            output.stdout(),
            output.stderr(),
            startedAt,
            Instant.now(),
            termination);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchFailedException("interrupted while running container " + id, e);
    } catch (IOException e) {
      throw new LaunchFailedException("the attach stream of container " + id + " failed: " + e, e);
    }
  }

  private static OptionalInt exitCode(WaitContainerResultCallback wait) {
    try {
      Integer code = wait.awaitStatusCode();
      return code == null ? OptionalInt.empty() : OptionalInt.of(code);
    } catch (DockerException | com.github.dockerjava.api.exception.DockerClientException e) {
      LOG.debug("no exit status: {}", e.getMessage());
      return OptionalInt.empty();
    }
  }

  /**
   * Whether the kernel's out-of-memory killer ended a process of the container: the daemon sets
   * {@code State.OOMKilled} on an OOM event of the container's memory cgroup. Without it an OOM kill
   * would read as an ordinary exit 137. The daemon handles the OOM event and the exit event
   * separately, and on a busy machine the exit can be seen first: a container that ended by
   * SIGKILL (137) that nobody here sent is inspected again for a short while before its exit is
   * taken as ordinary.
   */
  private boolean outOfMemoryKilled(String id, OptionalInt exitCode, String termination) {
    boolean killedUnasked = exitCode.isPresent() && exitCode.getAsInt() == SIGKILL_EXIT && termination.equals("none");
    long deadline = System.nanoTime() + (killedUnasked ? OOM_EVENT_WAIT.toNanos() : 0);
    while (true) {
      if (inspectOutOfMemory(id)) {
        return true;
      }
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      try {
        Thread.sleep(OOM_EVENT_POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  private boolean inspectOutOfMemory(String id) {
    try {
      InspectContainerResponse.ContainerState state = client.inspectContainerCmd(id).exec().getState();
      return state != null && Boolean.TRUE.equals(state.getOOMKilled());
    } catch (DockerException e) {
      throw new LaunchFailedException(
          "cannot inspect container " + id + " after its exit to see whether it ran out of memory: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Signals from a fresh thread. The frame-reading thread must never wait for the daemon: once
   * the container exits, the daemon holds the container's lock until its output is drained, so a
   * kill sent from the reader would wait for the reader forever.
   */
  private void signalAsync(String id, String signal) {
    Thread killer = new Thread(() -> signal(id, signal), "ck-docker-kill");
    killer.setDaemon(true);
    killer.start();
  }

  private void signal(String id, String signal) {
    try {
      client.killContainerCmd(id).withSignal(signal).exec();
    } catch (DockerException e) {
      // Not running any more: the signal has nothing left to end.
      LOG.debug("signal {} to {}: {}", signal, id, e.getMessage());
    }
  }

  void remove(String id) {
    try {
      client.removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
    } catch (NotFoundException e) {
      return;
    } catch (DockerException e) {
      LOG.debug("removing {} failed: {}", id, e.getMessage());
    }
    waitUntilGone(id);
  }

  private void waitUntilGone(String id) {
    Deadline deadline = Deadline.after(REMOVAL_WAIT);
    while (!deadline.passed()) {
      try {
        client.inspectContainerCmd(id).exec();
      } catch (NotFoundException e) {
        return;
      }
      try {
        client.removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
      } catch (NotFoundException e) {
        return;
      } catch (DockerException e) {
        LOG.debug("removing {} again failed: {}", id, e.getMessage());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LaunchFailedException("interrupted while removing container " + id, e);
      }
    }
    throw new LaunchFailedException("container " + id + " could not be removed");
  }

  static void deleteTree(Path root) {
    try {
      DirectoryTrees.delete(root);
    } catch (IOException e) {
      LOG.debug("cannot delete {}: {}", root, e.getMessage());
    }
  }

  /** Threads whose uncaught exceptions are logged, not printed. */
  private static final ThreadGroup QUIET =
      new ThreadGroup("ck-docker-stdin") {
        @Override
        public void uncaughtException(Thread thread, Throwable e) {
          LOG.debug("stdin writer {} ended: {}", thread.getName(), e.toString());
        }
      };

  /** Writes stdin's bytes through a stdin-only attach and closes it, which closes stdin. */
  static final class StdinFeed implements AutoCloseable {
    private final ResultCallback.Adapter<Frame> callback;
    private final CountDownLatch drained;
    private final CountDownLatch started;

    private StdinFeed(ResultCallback.Adapter<Frame> callback, CountDownLatch drained, CountDownLatch started) {
      this.callback = callback;
      this.drained = drained;
      this.started = started;
    }

    static StdinFeed open(DockerClient client, String id, byte[] input) {
      CountDownLatch drained = new CountDownLatch(1);
      InputStream source = new EndSignallingStream(new ByteArrayInputStream(input), drained);
      ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>();
      // docker-java writes stdin on a thread of its own, created by the thread that executes the
      // attach, and lets a write that fails (the command exited without reading everything) end
      // that thread with an exception. Attaching from a thread of a quiet group makes every thread
      // docker-java starts for this attach log such an end instead of printing it.
      Thread attacher =
          new Thread(
              QUIET,
              () -> client.attachContainerCmd(id).withStdIn(source).withFollowStream(true).exec(callback),
              "ck-docker-stdin-attach");
      attacher.start();
      try {
        attacher.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LaunchFailedException("interrupted while attaching stdin to " + id, e);
      }
      CountDownLatch started = new CountDownLatch(1);
      StdinFeed feed = new StdinFeed(callback, drained, started);
      Thread closer =
          new Thread(
              () -> {
                try {
                  drained.await();
                  // Detaching before the container runs loses the end of input: the daemon closes
                  // a StdinOnce stdin only when its client leaves a running container, and the
                  // command would wait for end of input until its deadline.
                  started.await();
                  callback.close();
                } catch (InterruptedException | IOException e) {
                  LOG.debug("closing stdin of {}: {}", id, e.getMessage());
                }
              },
              "ck-docker-stdin-" + id.substring(0, Math.min(12, id.length())));
      closer.setDaemon(true);
      closer.start();
      return feed;
    }

    /** Lets the input's end reach the command: called once the container runs. */
    void containerStarted() {
      started.countDown();
    }

    void awaitAttached(Duration wait) throws InterruptedException {
      if (!callback.awaitStarted(wait.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new LaunchFailedException("the daemon did not attach stdin");
      }
    }

    @Override
    public void close() throws IOException {
      drained.countDown();
      started.countDown();
      callback.close();
    }
  }

  /** Counts down a latch when the wrapped stream is read to its end. */
  private static final class EndSignallingStream extends InputStream {
    private final InputStream in;
    private final CountDownLatch ended;

    EndSignallingStream(InputStream in, CountDownLatch ended) {
      this.in = in;
      this.ended = ended;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b < 0) {
        ended.countDown();
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(buffer, offset, length);
      if (n < 0) {
        ended.countDown();
      }
      return n;
    }
  }
}
