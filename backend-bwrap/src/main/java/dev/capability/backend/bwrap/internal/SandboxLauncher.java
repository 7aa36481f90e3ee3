package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.Deadline;
import dev.capability.backend.support.EgressRelay;
import dev.capability.backend.support.PinnedCopy;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.linux.DescriptorSpawn;
import dev.capability.linux.NativeCallException;
import dev.capability.linux.SeccompException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
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

/**
 * Launches one spec in a fresh sandbox: the private copy of the executable, the checked filesystem
 * plan, bwrap's argument file, the run's cgroup, then the launcher chain; and sees it to its end.
 * Used for real launches and for the host probe alike, so the probe tests exactly what launches do.
 */
final class SandboxLauncher implements AutoCloseable {
  private static final Path ROOT = Path.of("/");

  private final HostTools tools;
  private final SandboxIdentity identity;
  private final BwrapSettings settings;
  private final SandboxFlags flags;
  private final Optional<CgroupParent> cgroup;
  private final Path base;
  private final Duration settleWait;
  private final SandboxLayout layout;
  private final Optional<FifoSupply> fifos;
  private final Optional<SandboxSeccomp> seccomp;
  private final Optional<EgressRelay> relay;

  /**
   * @param tools the verified host programs
   * @param identity who sandboxes run as
   * @param settings the backend's settings
   * @param flags the optional bwrap features to use
   * @param cgroup where run cgroups are created, if anywhere
   * @param base the private directory that holds run directories
   * @param settleWait how long the end of a killed sandbox and its output are awaited
   * @param relay the egress relay, without which runs with filtered network are refused
   */
  SandboxLauncher(
      HostTools tools,
      SandboxIdentity identity,
      BwrapSettings settings,
      SandboxFlags flags,
      Optional<CgroupParent> cgroup,
      Path base,
      Duration settleWait,
      Optional<EgressRelay> relay) {
    this.tools = Objects.requireNonNull(tools, "tools");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.flags = Objects.requireNonNull(flags, "flags");
    this.cgroup = Objects.requireNonNull(cgroup, "cgroup");
    this.base = Objects.requireNonNull(base, "base");
    this.settleWait = Objects.requireNonNull(settleWait, "settleWait");
    this.relay = Objects.requireNonNull(relay, "relay");
    if (cgroup.isPresent() && tools.mkfifo().isEmpty()) {
      throw new IllegalArgumentException("run cgroups need mkfifo");
    }
    this.fifos = cgroup.map(c -> new FifoSupply(tools.mkfifo().orElseThrow(), base));
    this.layout = new SandboxLayout(settings, identity, flags.sizedTmpfs());
    this.seccomp = flags.seccomp() ? Optional.of(compileSeccomp()) : Optional.empty();
  }

  private static SandboxSeccomp compileSeccomp() {
    try {
      return SandboxSeccomp.compile();
    } catch (SeccompException e) {
      throw new LaunchFailedException(
          "cannot compile the project's seccomp policy: " + e.getMessage(), e);
    }
  }

  /**
   * @throws LaunchFailedException when the sandbox could not be started, naming why
   * @throws BackendUnavailableException when the spec asks for no network and this host cannot
   *     create a network namespace
   * @throws NetworkFilterUnavailableException when the spec asks for filtered network and this
   *     launcher has no egress relay or no network namespace
   */
  LaunchResult launch(LaunchSpec spec) {
    Objects.requireNonNull(spec, "spec");
    spec.requireExactStrings(spec.executable().path().toString());
    if (spec.network() == NetworkMode.NONE && !flags.networkNamespace()) {
      throw new BackendUnavailableException(
          BackendUnavailableException.ISOLATION_UNAVAILABLE,
          "the spec asks for no network, but bwrap cannot create a network namespace here");
    }
    if (spec.network() == NetworkMode.FILTERED && (relay.isEmpty() || !flags.networkNamespace())) {
      throw new NetworkFilterUnavailableException(
          "the spec asks for filtered network, but this bwrap backend has no egress relay (a"
              + " network namespace and a C compiler are needed; see its FILTERED_EGRESS"
              + " diagnostic)");
    }
    String pwd = spec.environment().get("PWD");
    if (pwd != null && !pwd.equals(spec.workingDirectory().toString())) {
      throw new LaunchFailedException(
          "cannot launch "
              + spec.executable().path()
              + ": bwrap always sets PWD to the working"
              + " directory "
              + spec.workingDirectory()
              + ", and the environment sets it otherwise");
    }
    try (RunDirectory run = RunDirectory.create(base)) {
      run.writeSystemFiles(identity);
      SandboxLayout.RunFiles files = run.files();
      PinnedCopy.copy(spec.executable(), files.executable());
      SandboxLayout.Plan plan = layout.plan(spec, files);
      Optional<Path> egressSocket = spec.egressSocket();
      if (egressSocket.isPresent()) {
        plan = SandboxLayout.withEgressRelay(plan, relay.orElseThrow().executable());
      }
      Optional<Path> stdin = spec.stdin().map(bytes -> run.writePrivate("stdin", bytes));
      try (PinnedSources pinned = PinnedSources.open(plan.pinned());
          SeccompProgram filter = SeccompProgram.of(seccomp, spec.network());
          EgressSocket socket = EgressSocket.open(egressSocket)) {
        List<Integer> handed = new ArrayList<>(pinned.jvmDescriptors());
        OptionalInt seccompDescriptor = OptionalInt.empty();
        if (filter.descriptor().isPresent()) {
          seccompDescriptor =
              OptionalInt.of(DescriptorSpawn.FIRST_HANDED_DESCRIPTOR + handed.size());
          handed.add(filter.descriptor().getAsInt());
        }
        // bwrap leaves the socket's descriptor alone: it reaches the relay, which keeps it from
        // the command.
        OptionalInt socketDescriptor = OptionalInt.empty();
        if (socket.descriptor().isPresent()) {
          socketDescriptor = OptionalInt.of(DescriptorSpawn.FIRST_HANDED_DESCRIPTOR + handed.size());
          handed.add(socket.descriptor().getAsInt());
        }
        byte[] options =
            BwrapArguments.encode(
                BwrapArguments.options(
                    flags,
                    spec.network(),
                    settings.hostname(),
                    plan,
                    pinned.childDescriptors(),
                    seccompDescriptor,
                    spec.workingDirectory(),
                    spec.environment()),
                argumentFileCharset());
        // flock opens the argument file on the lowest free descriptor: the one after those handed.
        int argumentDescriptor = DescriptorSpawn.FIRST_HANDED_DESCRIPTOR + handed.size();
        Optional<RunCgroup> runCgroup = createRunCgroup();
        try {
          ArgumentChannel channel =
              runCgroup.isPresent()
                  ? ArgumentPipe.create(fifos.orElseThrow(), run, options, argumentDescriptor)
                  : ArgumentFile.write(run, options);
          String runId = UUID.randomUUID().toString().replace("-", "");
          List<String> argv =
              LauncherCommand.build(
                  runId,
                  tools,
                  identity,
                  settings.limits().withFileSizeAtMost(spec.maxFileBytes()),
                  channel.path(),
                  argumentDescriptor,
                  socketDescriptor.isPresent()
                      ? Path.of(EgressRelay.SANDBOX_PATH)
                      : spec.executable().path(),
                  socketDescriptor.isPresent()
                      ? relayArguments(spec, socketDescriptor.getAsInt())
                      : spec.arguments(),
                  pwd != null);
          run.createPlaceholders(plan.placeholders());
          return start(
              spec, argv, stdin, handed, channel, runCgroup, LauncherCommand.runToken(runId));
        } finally {
          runCgroup.ifPresent(RunCgroup::close);
        }
      }
    }
  }

  /**
   * The relay's arguments after its own path: the socket's descriptor, the port, and the command
   * exactly as bwrap would have executed it.
   */
  private static List<String> relayArguments(LaunchSpec spec, int socketDescriptor) {
    List<String> argv = new ArrayList<>();
    argv.add(spec.executable().path().toString());
    argv.addAll(spec.arguments());
    List<String> command =
        EgressRelay.command(
            EgressRelay.SANDBOX_PATH,
            "fd:" + socketDescriptor,
            spec.executable().path().toString(),
            argv);
    return command.subList(1, command.size());
  }

  /** Removes the named pipes made in advance; launches have all ended by then. */
  @Override
  public void close() {
    fifos.ifPresent(FifoSupply::close);
  }

  private Optional<RunCgroup> createRunCgroup() {
    try {
      return cgroup.map(parent -> parent.createRun(settings.runLimits()));
    } catch (UncheckedIOException e) {
      throw new LaunchFailedException("cannot create the run's cgroup: " + e.getMessage(), e);
    }
  }

  private LaunchResult start(
      LaunchSpec spec,
      List<String> argv,
      Optional<Path> stdin,
      List<Integer> handed,
      ArgumentChannel channel,
      Optional<RunCgroup> runCgroup,
      String runToken) {
    // The launcher chain runs outside any sandbox, some of it as root: nothing of the command's
    // environment may act on it.
    DescriptorSpawn.Request request =
        new DescriptorSpawn.Request(argv, Map.of(), ROOT, stdin, handed, false, false);
    Instant startedAt = Instant.now();
    Deadline deadline = Deadline.after(spec.timeout());
    Process launcher;
    try {
      launcher = DescriptorSpawn.start(request);
    } catch (NativeCallException e) {
      throw new LaunchFailedException(
          "cannot start bwrap for " + spec.executable().path() + ": " + e.getMessage(), e);
    }
    try {
      SandboxRun sandbox =
          new SandboxRun(launcher, runToken, spec, runCgroup, startedAt, deadline, settleWait);
      runCgroup.ifPresent(c -> adopt(c, launcher));
      channel.deliver(launcher, deadline);
      return sandbox.await();
    } catch (RuntimeException | Error e) {
      // Never leave a sandbox behind a failure of this code; the run cgroup, when there is one,
      // is killed as it is closed.
      launcher.destroyForcibly();
      throw e;
    }
  }

  /**
   * The charset bwrap's argument file is written in: the one the JDK uses for file names and argv,
   * so paths keep their bytes.
   */
  private static Charset argumentFileCharset() {
    List<Charset> charsets = LaunchSpec.processCharsets();
    return charsets.get(charsets.size() - 1);
  }

  private static void adopt(RunCgroup cgroup, Process launcher) {
    try {
      cgroup.adopt(launcher.pid());
    } catch (UncheckedIOException e) {
      throw new LaunchFailedException(
          "cannot move the sandbox into its cgroup " + cgroup.directory() + ": " + e.getMessage(),
          e);
    }
  }
}
