package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.HostPaths;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.linux.NativeAccess;
import dev.capability.linux.SeccompFilter;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import dev.capability.linux.NativeAccess;
import dev.capability.linux.SeccompFilter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Probes this host once, for real: finds and checks the host programs, asks bwrap its version,
 * looks for a writable cgroup v2, then starts probe sandboxes through the very launcher real runs
 * use and reads what the sandbox sees of itself. A capability is advertised only when a probe
 * sandbox showed it; for every other one the diagnostics say why not.
 */
final class HostProbe {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(20);

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
    if (!version.get().atLeast(BwrapVersion.BIND_FD)) {
      return unavailable(
          "bubblewrap "
              + BwrapVersion.BIND_FD
              + " or later is needed, this is "
              + version.get()
              + ": the repository and writable roots are bound by descriptor (--bind-fd), so that"
              + " a directory swapped for a symlink after the checks never binds a host path");
    }
    Optional<String> nativeProblem = NativeAccess.problem();
    if (nativeProblem.isPresent()) {
      diagnostics.put("native", nativeProblem.get());
      return unavailable(
          "bind sources are opened by descriptor through native calls, which this JVM cannot make: "
              + nativeProblem.get());
    }
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
    if (prlimit.isEmpty()) {
      return unavailable(
          "util-linux prlimit is needed to set each run's file size limit (RLIMIT_FSIZE): "
              + diagnostics.get("prlimit"));
    }

    Optional<String> workProblem = workDirectoryProblem(identity);
    if (workProblem.isPresent()) {
      return unavailable(workProblem.get());
    }

    CgroupParent.Probe cgroupProbe = CgroupParent.probe(settings.cgroup(), settings.runLimits());
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
    SeccompFilter.Availability seccomp = SeccompFilter.availability();
    if (!seccomp.available()) {
      diagnostics.put("SECCOMP", seccomp.reason());
    }
    SandboxFlags all = SandboxFlags.ALL.withSeccompIf(seccomp.available());
    try {
      ProbeSandbox.Outcome full =
          ProbeSandbox.run(settings, tools, identity, cgroup, all, cp, base);
      SandboxFlags flags = all;
      ProbeSandbox.Outcome working = full;
      if (!full.succeeded()) {
        ProbeSandbox.Outcome minimal =
            ProbeSandbox.run(settings, tools, identity, cgroup, SandboxFlags.BASE, cp, base);
        if (!minimal.succeeded()) {
          return unavailable(
              "bwrap cannot create a sandbox here (user, pid, ipc, uts and cgroup namespaces): "
                  + minimal.failure());
        }
        working = minimal;
        ProbeSandbox.Outcome net =
            ProbeSandbox.run(
                settings,
                tools,
                identity,
                cgroup,
                new SandboxFlags(true, false, false, false),
                cp,
                base);
        ProbeSandbox.Outcome userns =
            ProbeSandbox.run(
                settings,
                tools,
                identity,
                cgroup,
                new SandboxFlags(false, true, false, false),
                cp,
                base);
        ProbeSandbox.Outcome sized =
            ProbeSandbox.run(
                settings,
                tools,
                identity,
                cgroup,
                new SandboxFlags(false, false, true, false),
                cp,
                base);
        ProbeSandbox.Outcome filtered =
            ProbeSandbox.run(
                settings,
                tools,
                identity,
                cgroup,
                new SandboxFlags(false, false, false, seccomp.available()),
                cp,
                base);
        boolean seccompWorks = seccomp.available() && filtered.succeeded();
        flags =
            new SandboxFlags(net.succeeded(), userns.succeeded(), sized.succeeded(), seccompWorks);
        if (seccomp.available() && !filtered.succeeded()) {
          diagnostics.put(
              "SECCOMP", "bwrap --seccomp with the project's policy fails: " + filtered.failure());
        }
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
          ProbeSandbox.Outcome combined =
              ProbeSandbox.run(settings, tools, identity, cgroup, flags, cp, base);
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
                List.of("NETWORK_NAMESPACE", "NO_NESTED_USER_NAMESPACES", "PRIVATE_TMP", "SECCOMP")) {
              diagnostics.putIfAbsent(
                  capability, "its bwrap feature fails together with the others here");
            }
            flags = SandboxFlags.BASE;
          }
        }
      }
      return new CapabilityAssessment(settings, diagnostics)
          .assess(tools, identity, cgroup, flags, working.report());
    } finally {
      ProbeSandbox.deleteTree(base);
    }
  }

  private Optional<String> limitProblem(Optional<CgroupParent> cgroup) {
    ResourceLimits limits = settings.limits();
    if (!limits.needsCgroup()) {
      return Optional.empty();
    }
    if (cgroup.isEmpty()) {
      return Optional.of(
          "memory, process or CPU limits are configured but no writable cgroup v2 is available: "
              + diagnostics.get("cgroup"));
    }
    if (limits.memoryBytes().isPresent() && !cgroup.get().limits(CgroupParent.MEMORY)) {
      return Optional.of(
          BwrapSettings.LIMIT_MEMORY
              + " is configured but the cgroup v2 memory "
              + "controller cannot be enabled under "
              + cgroup.get().directory()
              + ", and no writable cgroup v1 memory hierarchy was found");
    }
    if (limits.milliCpus().isPresent() && !cgroup.get().limits(CgroupParent.CPU)) {
      return Optional.of(
          BwrapSettings.LIMIT_CPUS
              + " is configured but the cgroup v2 cpu "
              + "controller cannot be enabled under "
              + cgroup.get().directory()
              + ", and no writable cgroup v1 cpu hierarchy was found");
    }
    if (limits.processes().isPresent() && !cgroup.get().limits(CgroupParent.PIDS)) {
      return Optional.of(
          BwrapSettings.LIMIT_PIDS
              + " is configured but the cgroup v2 pids "
              + "controller cannot be enabled under "
              + cgroup.get().directory()
              + ", and no writable cgroup v1 pids hierarchy was found");
    }
    return Optional.empty();
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
            "bwrap",
            bwrap + " --version printed no bubblewrap version: " + ProbeSandbox.shorten(text));
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
}
