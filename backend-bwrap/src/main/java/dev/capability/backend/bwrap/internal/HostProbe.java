package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Probes this host once, for real: finds and checks the host programs, asks bwrap its version,
 * looks for a writable cgroup v2, then starts probe sandboxes through the very launcher real runs
 * use and reads what the sandbox sees of itself. A capability is advertised only when a probe
 * sandbox showed it; for every other one the diagnostics say why not.
 */
final class HostProbe {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration SETTLE = Duration.ofSeconds(5);
  private static final int MAX_REASON = 400;

  private final BwrapSettings settings;
  private final Map<String, String> diagnostics = new LinkedHashMap<>();

  private HostProbe(BwrapSettings settings) {
    this.settings = settings;
  }

  /** Probes the host for {@code settings}; never throws. */
  static HostSupport probe(BwrapSettings settings) {
    HostProbe probe = new HostProbe(settings);
    try {
      return probe.run();
    } catch (RuntimeException e) {
      // Whatever went wrong, the answer is "not here", with the reason.
      return HostSupport.unavailable("probing bwrap failed: " + e, probe.diagnostics);
    }
  }

  private HostSupport run() {
    String os = System.getProperty("os.name", "unknown");
    if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return unavailable("the bwrap backend needs Linux, this is " + os);
    }
    SandboxIdentity identity = SandboxIdentity.forThisJvm(settings);
    diagnostics.put("identity", describe(identity));

    Optional<Path> bwrap = locate("bwrap", settings.bwrapPath(), true);
    if (bwrap.isEmpty()) {
      return unavailable(diagnostics.get("bwrap"));
    }
    Optional<BwrapVersion> version = version(bwrap.get());
    if (version.isEmpty()) {
      return unavailable(diagnostics.get("bwrap"));
    }
    diagnostics.put("bwrap", "bubblewrap " + version.get() + " at " + bwrap.get());
    Optional<Path> flock = locate("flock", Optional.empty(), false);
    Optional<Path> env = locate("env", Optional.empty(), false);
    Optional<Path> setpriv = locate("setpriv", Optional.empty(), false);
    Optional<Path> prlimit = locate("prlimit", Optional.empty(), false);
    Optional<Path> mkfifo = locate("mkfifo", Optional.empty(), false);
    if (flock.isEmpty()) {
      return unavailable(
          "util-linux flock is needed to hand bwrap its arguments privately: "
              + diagnostics.get("flock"));
    }
    if (env.isEmpty()) {
      return unavailable(
          "env is needed inside the sandbox to remove the PWD bwrap sets: "
              + diagnostics.get("env"));
    }
    if (identity.dropsRoot() && setpriv.isEmpty()) {
      return unavailable(
          "this JVM runs as root and sandboxes must not: util-linux setpriv is needed to drop to"
              + " uid "
              + identity.uid()
              + ": "
              + diagnostics.get("setpriv"));
    }
    if (settings.limits().needsRlimits() && prlimit.isEmpty()) {
      return unavailable(
          "rlimits are configured (bwrap.limit.*) but util-linux prlimit is missing: "
              + diagnostics.get("prlimit"));
    }

    Optional<String> workProblem = workDirectoryProblem(identity);
    if (workProblem.isPresent()) {
      return unavailable(workProblem.get());
    }

    CgroupParent.Probe cgroupProbe = CgroupParent.probe(settings.cgroup(), settings.limits());
    Optional<CgroupParent> cgroup = cgroupProbe.parent();
    diagnostics.put("cgroup", cgroupProbe.explanation());
    if (settings.cgroup() instanceof BwrapSettings.CgroupChoice.Under && cgroup.isEmpty()) {
      return unavailable(
          BwrapSettings.CGROUP
              + " names a cgroup that cannot be used: "
              + cgroupProbe.explanation());
    }
    Optional<String> limitProblem = limitProblem(cgroup);
    if (limitProblem.isPresent()) {
      return unavailable(limitProblem.get());
    }
    if (cgroup.isPresent() && mkfifo.isEmpty()) {
      diagnostics.put(
          "cgroup",
          cgroupProbe.explanation()
              + "; not used: mkfifo is missing ("
              + diagnostics.get("mkfifo")
              + ")");
      if (settings.limits().needsCgroup()) {
        return unavailable(
            "cgroup limits are configured but mkfifo is missing: " + diagnostics.get("mkfifo"));
      }
      cgroup = Optional.empty();
    }
    HostTools tools =
        new HostTools(bwrap.get(), version.get(), flock.get(), env.get(), setpriv, prlimit, mkfifo);
    return sandboxProbes(tools, identity, cgroup);
  }

  private HostSupport sandboxProbes(
      HostTools tools, SandboxIdentity identity, Optional<CgroupParent> cgroup) {
    Path cp;
    try {
      cp =
          TrustedTool.find(TrustedTool.systemPaths("cp"), false)
              .orElseThrow(
                  () -> new IllegalStateException("no cp in /usr/bin or /bin to probe with"))
              .toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot resolve cp", e);
    }
    Path base;
    try {
      base = RunDirectory.createBase(settings.workDirectory());
    } catch (IOException e) {
      return unavailable(
          "cannot create a private directory in "
              + settings.workDirectory()
              + ": "
              + e.getMessage());
    }
    try {
      Probed full = run(tools, identity, cgroup, SandboxFlags.ALL, cp, base);
      SandboxFlags flags = SandboxFlags.ALL;
      Probed working = full;
      if (!full.succeeded()) {
        Probed minimal = run(tools, identity, cgroup, SandboxFlags.BASE, cp, base);
        if (!minimal.succeeded()) {
          return unavailable(
              "bwrap cannot create a sandbox here (user, pid, ipc, uts and cgroup namespaces): "
                  + minimal.failure());
        }
        working = minimal;
        Probed net = run(tools, identity, cgroup, new SandboxFlags(true, false, false), cp, base);
        Probed userns =
            run(tools, identity, cgroup, new SandboxFlags(false, true, false), cp, base);
        Probed sized = run(tools, identity, cgroup, new SandboxFlags(false, false, true), cp, base);
        flags = new SandboxFlags(net.succeeded(), userns.succeeded(), sized.succeeded());
        if (!net.succeeded()) {
          diagnostics.put("NETWORK_NAMESPACE", "bwrap --unshare-net fails here: " + net.failure());
        }
        if (!userns.succeeded()) {
          diagnostics.put(
              "NO_NESTED_USER_NAMESPACES",
              tools.version().atLeast(BwrapVersion.DISABLE_USERNS)
                  ? "bwrap --disable-userns fails here: " + userns.failure()
                  : "bubblewrap "
                      + tools.version()
                      + " has no --disable-userns (0.8.0 or later needed)");
        }
        if (!sized.succeeded()) {
          diagnostics.put(
              "PRIVATE_TMP",
              "bwrap --size fails here ("
                  + sized.failure()
                  + "); /tmp and /dev/shm are still "
                  + "private tmpfs, but not size-limited");
        }
        if (!flags.equals(SandboxFlags.BASE)) {
          // Each feature worked alone; launches use them together.
          Probed combined = run(tools, identity, cgroup, flags, cp, base);
          if (combined.succeeded()) {
            working = combined;
          } else {
            diagnostics.put(
                "features",
                flags
                    + " work one by one but not together ("
                    + combined.failure()
                    + "); none used");
            for (String capability :
                List.of("NETWORK_NAMESPACE", "NO_NESTED_USER_NAMESPACES", "PRIVATE_TMP")) {
              diagnostics.putIfAbsent(
                  capability, "its bwrap feature fails together with the others here");
            }
            flags = SandboxFlags.BASE;
          }
        }
      }
      return assess(tools, identity, cgroup, flags, working.report());
    } finally {
      deleteBase(base);
    }
  }

  private record Probed(Optional<SandboxSelfReport> seen, String failure) {
    boolean succeeded() {
      return seen.isPresent();
    }

    SandboxSelfReport report() {
      return seen.orElseThrow();
    }
  }

  private Probed run(
      HostTools tools,
      SandboxIdentity identity,
      Optional<CgroupParent> cgroup,
      SandboxFlags flags,
      Path cp,
      Path base) {
    Path seen = base.resolve("seen-" + UUID.randomUUID());
    try (SandboxLauncher launcher =
        new SandboxLauncher(tools, identity, settings, flags, cgroup, base, SETTLE)) {
      Files.createDirectory(
          seen, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
      Files.setPosixFilePermissions(seen, PosixFilePermissions.fromString("rwxr-xr-x"));
      if (identity.dropsRoot()) {
        Files.setAttribute(seen, "unix:uid", identity.uid(), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(seen, "unix:gid", identity.gid(), LinkOption.NOFOLLOW_LINKS);
      }
      LaunchSpec spec =
          LaunchSpec.builder(pinned(cp))
              .arguments(
                  List.of(
                      "/proc/self/status",
                      "/proc/self/environ",
                      "/proc/self/uid_map",
                      "/proc/self/mountinfo",
                      "/proc/sys/kernel/hostname",
                      seen + "/"))
              .workingDirectory(seen)
              .writableRoots(List.of(seen))
              .network(flags.networkNamespace() ? NetworkMode.NONE : NetworkMode.HOST)
              .timeout(PROBE_TIMEOUT)
              .terminationGrace(Duration.ZERO)
              .maxOutputBytes(1 << 16)
              .build();
      LaunchResult result = launcher.launch(spec);
      if (result.exitCode().orElse(-1) != 0 || result.timedOut()) {
        return new Probed(
            Optional.empty(),
            "exit status "
                + (result.exitCode().isPresent() ? result.exitCode().getAsInt() : "unknown")
                + (result.timedOut() ? " (timed out)" : "")
                + ": "
                + shorten(result.stderr().text()));
      }
      Path status = seen.resolve("status");
      int owner = (Integer) Files.getAttribute(status, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      return new Probed(
          Optional.of(
              SandboxSelfReport.parse(
                  read(status),
                  read(seen.resolve("environ")),
                  read(seen.resolve("uid_map")),
                  read(seen.resolve("mountinfo")),
                  read(seen.resolve("hostname")),
                  owner)),
          "");
    } catch (CapabilityException e) {
      return new Probed(Optional.empty(), shorten(e.getMessage()));
    } catch (IOException e) {
      return new Probed(
          Optional.empty(), "cannot read what the probe sandbox wrote: " + e.getMessage());
    } finally {
      deleteTree(seen);
    }
  }

  private static String read(Path file) throws IOException {
    if (Files.isSymbolicLink(file)) {
      throw new IOException(file + " is a symlink");
    }
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  private HostSupport assess(
      HostTools tools,
      SandboxIdentity identity,
      Optional<CgroupParent> cgroup,
      SandboxFlags flags,
      SandboxSelfReport report) {
    Set<IsolationCapability> verified = EnumSet.noneOf(IsolationCapability.class);
    if (!report.freshPidNamespace()) {
      return unavailable(
          "the probe sandbox is not in a fresh PID namespace (Pid "
              + report.status().get("Pid")
              + ", NSpid "
              + report.status().get("NSpid")
              + "); refusing to use this bwrap");
    }
    if (!report.environment().isEmpty()) {
      return unavailable(
          "the probe sandbox, given an empty environment, saw "
              + report.environment().size()
              + " variables; the command would not get exactly the spec's environment");
    }
    verified.addAll(
        List.of(
            IsolationCapability.PID_NAMESPACE,
            IsolationCapability.SESSION_TERMINATION,
            IsolationCapability.TREE_TERMINATION,
            IsolationCapability.IPC_NAMESPACE,
            IsolationCapability.CGROUP_NAMESPACE,
            IsolationCapability.READ_ONLY_REPOSITORY,
            IsolationCapability.WRITABLE_SCOPE_ROOTS));
    check(
        verified,
        IsolationCapability.USER_NAMESPACE,
        report.ownUserNamespace(),
        "the probe sandbox shares the host's uid map");
    check(
        verified,
        IsolationCapability.UTS_NAMESPACE,
        report.hostname().equals(settings.hostname()),
        "the probe sandbox's host name is not " + settings.hostname());
    check(
        verified,
        IsolationCapability.NON_ROOT,
        report.hostOwner() != 0 && report.hostOwner() == identity.uid(),
        "files the probe sandbox wrote are owned by host uid "
            + report.hostOwner()
            + ", expected "
            + identity.uid());
    if (!verified.contains(IsolationCapability.NON_ROOT)) {
      return unavailable(
          "sandboxes would not run as the unprivileged uid "
              + identity.uid()
              + ": "
              + diagnostics.get("NON_ROOT"));
    }
    check(
        verified,
        IsolationCapability.CAPABILITY_DROP,
        report.noCapabilities(),
        "the probe sandbox holds capabilities: " + capabilities(report));
    check(
        verified,
        IsolationCapability.NO_NEW_PRIVILEGES,
        report.noNewPrivileges(),
        "the probe sandbox runs without no_new_privs");
    check(
        verified,
        IsolationCapability.READ_ONLY_ROOT,
        report.readOnly("/"),
        "the probe sandbox's root is not mounted read-only");
    List<String> exposed =
        Stream.of("/run", "/var/run", "/home", "/root", "/sys")
            .flatMap(d -> report.mountsUnder(d).stream())
            .toList();
    check(
        verified,
        IsolationCapability.HOST_SOCKETS_HIDDEN,
        exposed.isEmpty(),
        "the probe sandbox shows " + exposed);
    if (flags.networkNamespace()) {
      verified.add(IsolationCapability.NETWORK_NAMESPACE);
    }
    if (flags.disableUserns()) {
      verified.add(IsolationCapability.NO_NESTED_USER_NAMESPACES);
    }
    check(
        verified,
        IsolationCapability.PRIVATE_TMP,
        flags.sizedTmpfs() && report.mounts().containsKey("/tmp"),
        diagnostics.getOrDefault("PRIVATE_TMP", "the probe sandbox has no private /tmp"));
    limits(verified, cgroup);
    diagnostics.put(
        "SECCOMP",
        "not provided: no seccomp filter is installed; --new-session keeps TIOCSTI away from the "
            + "operator's terminal");
    diagnostics.put(
        "termination",
        cgroup.isPresent()
            ? "cgroup-kill: each run has its own cgroup; timeouts end it with cgroup.kill"
            : "pid-namespace: timeouts kill the sandbox's PID 1, and the kernel kills the rest of"
                + " its PID namespace");
    String summary =
        "bubblewrap "
            + tools.version()
            + " at "
            + tools.bwrap()
            + "; sandboxes run as uid "
            + identity.uid()
            + (identity.dropsRoot() ? " (dropped from root)" : "");
    return new HostSupport(
        Optional.of(new HostSupport.Setup(tools, identity, flags, cgroup)),
        summary,
        verified,
        diagnostics);
  }

  private void limits(Set<IsolationCapability> verified, Optional<CgroupParent> cgroup) {
    ResourceLimits limits = settings.limits();
    Set<String> controllers = cgroup.map(CgroupParent::controllers).orElse(Set.of());
    if (limits.memoryBytes().isPresent() && controllers.contains(CgroupParent.MEMORY)) {
      verified.add(IsolationCapability.MEMORY_LIMIT);
      diagnostics.put(
          "MEMORY_LIMIT", "memory.max " + limits.memoryBytes().getAsLong() + " bytes per run");
    } else {
      diagnostics.put(
          "MEMORY_LIMIT",
          "not configured: set "
              + BwrapSettings.LIMIT_MEMORY
              + " (needs the cgroup v2 memory controller)");
    }
    if (limits.processes().isPresent() && controllers.contains(CgroupParent.PIDS)) {
      verified.add(IsolationCapability.PID_LIMIT);
      diagnostics.put("PID_LIMIT", "pids.max " + limits.processes().getAsLong() + " per run");
    } else {
      diagnostics.put(
          "PID_LIMIT",
          "not configured: set "
              + BwrapSettings.LIMIT_PIDS
              + " (needs the cgroup v2 pids controller; RLIMIT_NPROC is per uid and never used)");
    }
    diagnostics.put(
        "CPU_LIMIT",
        "not provided: "
            + BwrapSettings.LIMIT_CPU_SECONDS
            + " sets RLIMIT_CPU, which limits each "
            + "process, not the run; the wall-clock timeout bounds the run");
    if (limits.needsRlimits()) {
      diagnostics.put("rlimits", String.join(" ", limits.prlimitOptions()));
    }
  }

  private Optional<String> limitProblem(Optional<CgroupParent> cgroup) {
    ResourceLimits limits = settings.limits();
    if (!limits.needsCgroup()) {
      return Optional.empty();
    }
    if (cgroup.isEmpty()) {
      return Optional.of(
          "memory or process limits are configured but no writable cgroup v2 is available: "
              + diagnostics.get("cgroup"));
    }
    Set<String> controllers = cgroup.get().controllers();
    if (limits.memoryBytes().isPresent() && !controllers.contains(CgroupParent.MEMORY)) {
      return Optional.of(
          BwrapSettings.LIMIT_MEMORY
              + " is configured but the cgroup v2 memory "
              + "controller cannot be enabled under "
              + cgroup.get().directory());
    }
    if (limits.processes().isPresent() && !controllers.contains(CgroupParent.PIDS)) {
      return Optional.of(
          BwrapSettings.LIMIT_PIDS
              + " is configured but the cgroup v2 pids "
              + "controller cannot be enabled under "
              + cgroup.get().directory());
    }
    return Optional.empty();
  }

  private void check(
      Set<IsolationCapability> verified, IsolationCapability capability, boolean ok, String why) {
    if (ok) {
      verified.add(capability);
    } else {
      diagnostics.put(capability.name(), why);
    }
  }

  private Optional<Path> locate(String name, Optional<Path> configured, boolean forbidSetuid) {
    List<Path> candidates = configured.map(List::of).orElse(TrustedTool.systemPaths(name));
    List<String> problems = new ArrayList<>();
    for (Path candidate : candidates) {
      if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      Optional<String> problem = TrustedTool.problem(candidate, forbidSetuid);
      if (problem.isEmpty()) {
        diagnostics.put(name, candidate.toString());
        return Optional.of(candidate);
      }
      problems.add(problem.get());
    }
    diagnostics.put(
        name,
        problems.isEmpty()
            ? name
                + " not found in "
                + candidates.stream().map(Path::toString).collect(Collectors.joining(" or "))
            : "no trustworthy " + name + ": " + String.join("; ", problems));
    return Optional.empty();
  }

  private Optional<BwrapVersion> version(Path bwrap) {
    ProcessBuilder builder =
        new ProcessBuilder(bwrap.toString(), "--version")
            .directory(new File("/"))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true);
    builder.environment().clear();
    try {
      Process process = builder.start();
      byte[] output;
      try (InputStream in = process.getInputStream()) {
        output = in.readNBytes(4096);
      }
      if (!process.waitFor(PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        diagnostics.put("bwrap", bwrap + " --version did not finish");
        return Optional.empty();
      }
      String text = new String(output, StandardCharsets.UTF_8);
      Optional<BwrapVersion> version = BwrapVersion.parse(text);
      if (version.isEmpty()) {
        diagnostics.put(
            "bwrap", bwrap + " --version printed no bubblewrap version: " + shorten(text));
      }
      return version;
    } catch (IOException e) {
      diagnostics.put("bwrap", "cannot run " + bwrap + ": " + e.getMessage());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      diagnostics.put("bwrap", "interrupted while asking " + bwrap + " its version");
      return Optional.empty();
    }
  }

  private Optional<String> workDirectoryProblem(SandboxIdentity identity) {
    Path work = settings.workDirectory();
    try {
      if (HostPaths.requireNoSymlink(work, BwrapSettings.WORK_DIR) != HostPaths.Kind.DIRECTORY) {
        return Optional.of(BwrapSettings.WORK_DIR + " " + work + " is not a directory");
      }
    } catch (CapabilityException e) {
      return Optional.of(e.getMessage());
    }
    if (!identity.canReach(work)) {
      return Optional.of(
          BwrapSettings.WORK_DIR
              + " "
              + work
              + " cannot be reached by uid "
              + identity.uid()
              + ", which must pass through it to the executable copies");
    }
    return Optional.empty();
  }

  private static PinnedExecutable pinned(Path file) {
    try {
      return new PinnedExecutable(
          file,
          Sha256.hex(Files.readAllBytes(file)),
          file.toString(),
          PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static String capabilities(SandboxSelfReport report) {
    return Stream.of("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")
        .map(set -> set + "=" + report.status().get(set))
        .collect(Collectors.joining(" "));
  }

  private static String describe(SandboxIdentity identity) {
    return identity.dropsRoot()
        ? "this JVM runs as root; sandboxes run as uid "
            + identity.uid()
            + " gid "
            + identity.gid()
            + " with no supplementary groups (setpriv)"
        : "sandboxes run as this JVM's uid " + identity.uid() + " gid " + identity.gid();
  }

  private HostSupport unavailable(String reason) {
    return HostSupport.unavailable(reason, diagnostics);
  }

  private static String shorten(String text) {
    String oneLine = text.strip().replace('\n', ' ');
    return oneLine.length() > MAX_REASON ? oneLine.substring(0, MAX_REASON) + "..." : oneLine;
  }

  private static void deleteBase(Path base) {
    deleteTree(base);
  }

  /** Deletes a directory the probe made, without following symlinks a sandbox may have left. */
  private static void deleteTree(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      for (Path entry : entries.toList()) {
        if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
          deleteTree(entry);
        } else {
          Files.deleteIfExists(entry);
        }
      }
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      // A leftover private directory is harmless.
    }
  }
}
