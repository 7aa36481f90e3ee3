package dev.capability.backend.process.internal;

import dev.capability.backend.support.Deadline;
import dev.capability.backend.support.ExecArgumentLimit;
import dev.capability.backend.support.WriteBudget;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.linux.DescriptorSpawn;
import dev.capability.linux.NativeCallException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * Runs commands as plain child processes of this JVM: an audited execution boundary, not a sandbox.
 * The command runs as the JVM's user, with that user's files, network and view of other processes.
 * What this backend does guarantee is the baseline contract: argv without a shell, exactly the
 * spec's environment, stdin closed unless input is given, bounded output, and a timeout that ends
 * the command's process tree.
 *
 * <p>The command leads its own session: it is started with {@code posix_spawn} and {@code
 * POSIX_SPAWN_SETSID} where that was verified, otherwise through a verified util-linux {@code
 * setsid}; termination then reaches every process in that session as well as every descendant. A
 * process that double-forks and calls {@code setsid} itself leaves both and survives; that is why
 * {@link IsolationCapability#TREE_TERMINATION} is not advertised. Nothing supervises a command
 * when this JVM dies: it and its descendants keep running, so {@link
 * IsolationCapability#TERMINATION_ON_HOST_EXIT} is not advertised either.
 *
 * <p>argv[0] as seen by the command is the exec path, for example {@code /proc/<pid>/fd/<n>}. stdin
 * is {@code /dev/null} unless the spec gives input. Thread-safe: launches are independent.
 */
public final class ProcessBackend implements ExecutionBackend {
  /** The backend id. */
  public static final String ID = "process";

  private static final Duration DEFAULT_DRAIN_WAIT = Duration.ofSeconds(5);
  private static final File DEV_NULL = new File("/dev/null");

  /** Where util-linux prlimit, which sets each command's file size limit, is looked for. */
  static final List<Path> PRLIMIT_PATHS =
      List.of(Path.of("/usr/bin/prlimit"), Path.of("/bin/prlimit"));

  private final SessionSupport session;
  private final Optional<Path> prlimit;
  private final Duration drainWait;
  private final Set<IsolationCapability> capabilities;
  private final Optional<String> writeBudget;
  private final ExecArgumentLimit argumentLimit =
      ExecArgumentLimit.inheritedFromThisProcess("by this JVM's children");

  /** A backend that starts commands in their own session when {@code session} allows it. */
  public ProcessBackend(SessionSupport session) {
    this(session, DEFAULT_DRAIN_WAIT);
  }

  /**
   * @param drainWait how long output and exit status are awaited once the tree was ended; only a
   *     process that escaped the tree while holding the output pipe makes this wait run out
   */
  ProcessBackend(SessionSupport session, Duration drainWait) {
    this.session = Objects.requireNonNull(session, "session");
    this.drainWait = Objects.requireNonNull(drainWait, "drainWait");
    this.prlimit = PRLIMIT_PATHS.stream().filter(Files::isExecutable).findFirst();
    Set<IsolationCapability> verified = EnumSet.noneOf(IsolationCapability.class);
    if (session.available()) {
      verified.add(IsolationCapability.SESSION_TERMINATION);
    }
    if (prlimit.isPresent()) {
      verified.add(IsolationCapability.FILE_SIZE_LIMIT);
    }
    this.writeBudget = WriteBudget.unavailable();
    if (writeBudget.isEmpty()) {
      verified.add(IsolationCapability.WRITE_BUDGET);
    }
    this.capabilities = Collections.unmodifiableSet(verified);
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Set<IsolationCapability> capabilities() {
    return capabilities;
  }

  /** The kernel's release, which enforces the session and resource limits this backend sets. */
  @Override
  public Map<String, String> versions() {
    return Map.of("kernel", System.getProperty("os.version"));
  }

  @Override
  public Map<String, String> diagnostics() {
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put(
        "boundary",
        "audited execution boundary, not a sandbox: the command runs as this JVM's user and can "
            + "read and write what that user can, see and signal that user's processes, and use "
            + "the host network");
    facts.put("SESSION_TERMINATION", session.explanation());
    facts.put(
        "TREE_TERMINATION",
        "not provided: a process that double-forks and calls setsid itself leaves the command's "
            + "session and parentage, and survives termination");
    facts.put(
        "TERMINATION_ON_HOST_EXIT",
        "not provided: commands are plain children of this JVM with no supervisor; when the JVM "
            + "dies (SIGKILL, the OOM killer, a crash) nothing ends them, and the command and "
            + "everything it started keep running; a policy that requires TERMINATION_ON_HOST_EXIT "
            + "refuses this backend");
    facts.put(
        "NETWORK_NAMESPACE",
        "not provided: the command uses the host network; a spec with network NONE requires "
            + "NETWORK_NAMESPACE and is refused");
    facts.put(
        "filesystem",
        "not provided: READ_ONLY_ROOT, READ_ONLY_REPOSITORY, WRITABLE_SCOPE_ROOTS, PRIVATE_TMP, "
            + "HOST_SOCKETS_HIDDEN; writable roots in a spec are not enforced by this backend");
    facts.put(
        "namespaces",
        "not provided: PID_NAMESPACE, USER_NAMESPACE, IPC_NAMESPACE, UTS_NAMESPACE, "
            + "CGROUP_NAMESPACE");
    facts.put(
        "limits",
        "not provided: MEMORY_LIMIT, PID_LIMIT, CPU_LIMIT, SECCOMP, CAPABILITY_DROP, "
            + "NO_NEW_PRIVILEGES, NON_ROOT, NO_NESTED_USER_NAMESPACES");
    facts.put(
        "fileSize",
        prlimit
            .map(p -> "RLIMIT_FSIZE per command, set by " + p + " to the spec's maxFileBytes")
            .orElse("not available: no prlimit in " + PRLIMIT_PATHS + "; every launch is refused"));
    facts.put(
        "WRITE_BUDGET",
        writeBudget
            .map(why -> "not available: " + why)
            .orElse(
                "the spec's writable roots are measured while the command runs and it is ended"
                    + " when they grow by more than maxWriteBytes; the command can write elsewhere"
                    + " too, which is not measured"));
    facts.put(
        "argv0", "the command sees its exec path (for example /proc/<pid>/fd/<n>) as argv[0]");
    facts.put("stdin", "/dev/null unless the spec gives input, which is written and then closed");
    facts.put(
        "charset",
        "argv and environment are encoded in "
            + LaunchSpec.processCharsets().stream()
                .map(Charset::name)
                .collect(Collectors.joining(" and "))
            + "; strings that cannot be encoded exactly are refused");
    return Collections.unmodifiableMap(facts);
  }

  @Override
  public LaunchResult launch(LaunchSpec spec) {
    Objects.requireNonNull(spec, "spec");
    requireCapabilities(spec);
    LaunchPreflight.check(spec);
    if (prlimit.isEmpty()) {
      throw new BackendUnavailableException(
          BackendUnavailableException.ISOLATION_UNAVAILABLE,
          "the process backend cannot limit the file size of "
              + spec.executable().path()
              + ": util-linux prlimit is not in "
              + PRLIMIT_PATHS);
    }
    JvmProcesses jvm = JvmProcesses.current();
    List<String> command = command(spec);
    // prlimit (and setsid, when sessions come from it) and the command each exec this argv (less
    // its head) with this environment.
    argumentLimit.check(LaunchPreflight.describe(spec), command, spec.environment(), 0, "");

    CountDownLatch stopped = new CountDownLatch(1);
    WriteBudget writeBudget = WriteBudget.watch(spec, stopped::countDown);
    Instant startedAt = Instant.now();
    Deadline deadline = Deadline.after(spec.timeout());
    Process process;
    try {
      process = session.spawned() ? spawn(spec, command) : start(spec, command);
    } catch (IOException | NativeCallException e) {
      writeBudget.close();
      throw new LaunchFailedException(
          "cannot launch "
              + LaunchPreflight.describe(spec)
              + " in "
              + spec.workingDirectory()
              + ": "
              + e.getMessage(),
          e);
    }
    try {
      return new RunningCommand(
              process,
              spec,
              session.available(),
              startedAt,
              deadline,
              drainWait,
              jvm,
              writeBudget,
              stopped)
          .await();
    } catch (RuntimeException | Error e) {
      // Never leave a command running behind a failure of this code.
      writeBudget.close();
      process.destroyForcibly();
      throw e;
    }
  }

  /** Starts {@code command} with posix_spawn as the leader of a new session. */
  private static Process spawn(LaunchSpec spec, List<String> command) {
    DescriptorSpawn.Request request =
        new DescriptorSpawn.Request(
                command,
                spec.environment(),
                spec.workingDirectory(),
                null,
                List.of())
            .inNewSession();
    return DescriptorSpawn.start(spec.stdin().isPresent() ? request.withStdinPipe() : request);
  }

  /** Starts {@code command} with the JDK, in a new session only when it goes through setsid. */
  private static Process start(LaunchSpec spec, List<String> command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(spec.environment());
    builder.directory(spec.workingDirectory().toFile());
    builder.redirectInput(
        spec.stdin().isPresent()
            ? ProcessBuilder.Redirect.PIPE
            : ProcessBuilder.Redirect.from(DEV_NULL));
    return builder.start();
  }

  private void requireCapabilities(LaunchSpec spec) {
    if (spec.network() == NetworkMode.FILTERED) {
      throw new NetworkFilterUnavailableException(
          "the process backend cannot confine "
              + spec.executable().path()
              + " to the egress proxy: its commands share the host's network; choose a backend"
              + " that provides FILTERED_EGRESS (bwrap, docker)");
    }
    Set<IsolationCapability> missing = EnumSet.noneOf(IsolationCapability.class);
    missing.addAll(spec.requiredCapabilities());
    missing.removeAll(capabilities);
    if (!missing.isEmpty()) {
      throw new BackendUnavailableException(
          BackendUnavailableException.ISOLATION_UNAVAILABLE,
          "the process backend cannot provide "
              + missing
              + " required to run "
              + spec.executable().path()
              + "; it provides only "
              + capabilities
              + " (it is an audited execution boundary, not a sandbox): choose a backend that "
              + "provides them");
    }
  }

  private List<String> command(LaunchSpec spec) {
    List<String> command = new ArrayList<>();
    // prlimit and setsid each exec the next program in the same process, so the pid this JVM
    // started stays the command's. With posix_spawn the session is made before prlimit runs.
    long fileSize = spec.maxFileBytes();
    command.addAll(
        List.of(prlimit.orElseThrow().toString(), "--fsize=" + fileSize + ":" + fileSize, "--"));
    session
        .setsid()
        .ifPresent(
            setsid -> {
              command.add(setsid.toString());
              // Ends setsid's options, whatever the exec path looks like.
              command.add("--");
            });
    command.add(spec.executable().execPath());
    command.addAll(spec.arguments());
    return command;
  }
}
