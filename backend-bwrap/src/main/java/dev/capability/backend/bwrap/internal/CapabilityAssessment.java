package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.EgressRelay;
import dev.capability.backend.support.WriteBudget;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.EgressSandbox;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Turns what a probe sandbox saw of itself into the capabilities this host verifiably has, and
 * records, for each one missing, why.
 */
final class CapabilityAssessment {
  private final BwrapSettings settings;
  private final Map<String, String> diagnostics;

  /**
   * @param settings the backend's settings
   * @param diagnostics where findings are added, shared with the rest of the probe
   */
  CapabilityAssessment(BwrapSettings settings, Map<String, String> diagnostics) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.diagnostics = Objects.requireNonNull(diagnostics, "diagnostics");
  }

  HostSupport assess(
      HostTools tools,
      SandboxIdentity identity,
      Optional<CgroupParent> cgroup,
      SandboxFlags flags,
      SandboxSelfReport report) {
    Set<IsolationCapability> verified = EnumSet.noneOf(IsolationCapability.class);
    if (!report.freshPidNamespace()) {
      return HostSupport.unavailable(
          "the probe sandbox is not in a fresh PID namespace (Pid "
              + report.status().get("Pid")
              + ", NSpid "
              + report.status().get("NSpid")
              + "); refusing to use this bwrap",
          diagnostics);
    }
    if (!report.environment().isEmpty()) {
      return HostSupport.unavailable(
          "the probe sandbox, given an empty environment, saw "
              + report.environment().size()
              + " variables; the command would not get exactly the spec's environment",
          diagnostics);
    }
    verified.addAll(
        List.of(
            IsolationCapability.PID_NAMESPACE,
            IsolationCapability.SESSION_TERMINATION,
            IsolationCapability.TREE_TERMINATION,
            IsolationCapability.TERMINATION_ON_HOST_EXIT,
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
      return HostSupport.unavailable(
          "sandboxes would not run as the unprivileged uid "
              + identity.uid()
              + ": "
              + diagnostics.get("NON_ROOT"),
          diagnostics);
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
    Optional<EgressRelay> relay = egressRelay(flags);
    if (relay.isPresent()) {
      verified.add(IsolationCapability.FILTERED_EGRESS);
    }
    if (flags.disableUserns()) {
      verified.add(IsolationCapability.NO_NESTED_USER_NAMESPACES);
    }
    if (flags.seccomp()) {
      verified.add(IsolationCapability.SECCOMP);
    }
    check(
        verified,
        IsolationCapability.PRIVATE_TMP,
        flags.sizedTmpfs() && report.mounts().containsKey("/tmp"),
        diagnostics.getOrDefault("PRIVATE_TMP", "the probe sandbox has no private /tmp"));
    limits(verified, cgroup);
    verified.add(IsolationCapability.FILE_SIZE_LIMIT);
    diagnostics.put(
        "FILE_SIZE_LIMIT",
        "RLIMIT_FSIZE of every process, set by prlimit to the spec's maxFileBytes"
            + settings.limits().fileSizeBytes().stream()
                .mapToObj(bytes -> " (at most " + bytes + ")")
                .findFirst()
                .orElse(""));
    Optional<String> noWriteBudget = WriteBudget.unavailable();
    if (noWriteBudget.isEmpty()) {
      verified.add(IsolationCapability.WRITE_BUDGET);
      diagnostics.put(
          "WRITE_BUDGET",
          "the writable roots are measured while the command runs (blocks allocated) and the"
              + " sandbox is ended when they grow by more than the spec's maxWriteBytes");
    } else {
      diagnostics.put("WRITE_BUDGET", "not available: " + noWriteBudget.get());
    }
    diagnostics.put(
        "SECCOMP",
        flags.seccomp()
            ? "the project's policy (io_uring, userfaultfd, perf_event_open, bpf, keyrings, kernel"
                + " modules, kexec, new namespaces, mounts, AF_VSOCK/AF_PACKET/AF_NETLINK sockets)"
                + " through bwrap --seccomp; --new-session keeps TIOCSTI away from the operator's"
                + " terminal"
            : "not provided: "
                + diagnostics.getOrDefault("SECCOMP", "no seccomp filter is installed")
                + "; --new-session keeps TIOCSTI away from the operator's terminal");
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
        Optional.of(new HostSupport.Setup(tools, identity, flags, cgroup, relay)),
        summary,
        verified,
        diagnostics);
  }

  /**
   * The relay of filtered egress: an empty network namespace (bwrap --unshare-net) whose loopback
   * is relayed to the proxy's socket by a program compiled here. Without either, runs with
   * filtered network are refused; the reason is kept for FILTERED_EGRESS.
   */
  private Optional<EgressRelay> egressRelay(SandboxFlags flags) {
    if (!flags.networkNamespace()) {
      diagnostics.put(
          "FILTERED_EGRESS",
          "not available: it needs a network namespace ("
              + diagnostics.getOrDefault("NETWORK_NAMESPACE", "bwrap --unshare-net fails here")
              + ")");
      return Optional.empty();
    }
    try {
      EgressRelay relay = EgressRelay.onThisHost(settings.workDirectory());
      diagnostics.put(
          "FILTERED_EGRESS",
          "an empty network namespace (bwrap --unshare-net) whose "
              + EgressSandbox.PROXY_HOST
              + ":"
              + EgressSandbox.PROXY_PORT
              + " the egress relay "
              + relay.executable()
              + " forwards to the run's proxy socket, held by descriptor");
      return Optional.of(relay);
    } catch (BackendUnavailableException e) {
      diagnostics.put("FILTERED_EGRESS", "not available: " + e.getMessage());
      return Optional.empty();
    }
  }

  private void limits(Set<IsolationCapability> verified, Optional<CgroupParent> cgroup) {
    ResourceLimits limits = settings.runLimits();
    boolean memory = cgroup.map(c -> c.limits(CgroupParent.MEMORY)).orElse(false);
    boolean pids = cgroup.map(c -> c.limits(CgroupParent.PIDS)).orElse(false);
    if (limits.memoryBytes().isPresent() && memory) {
      verified.add(IsolationCapability.MEMORY_LIMIT);
      diagnostics.put(
          "MEMORY_LIMIT",
          "memory.max "
              + limits.memoryBytes().getAsLong()
              + " bytes per run"
              + (settings.limits().memoryBytes().isPresent()
                  ? ""
                  : " (the default: half the host's memory; set " + BwrapSettings.LIMIT_MEMORY + ")"));
    } else {
      diagnostics.put(
          "MEMORY_LIMIT",
          "not available: "
              + BwrapSettings.LIMIT_MEMORY
              + " needs the cgroup v2 memory controller, or the v1 one as root");
    }
    if (limits.processes().isPresent() && pids) {
      verified.add(IsolationCapability.PID_LIMIT);
      diagnostics.put("PID_LIMIT", "pids.max " + limits.processes().getAsLong() + " per run");
    } else {
      diagnostics.put(
          "PID_LIMIT",
          "not available: "
              + BwrapSettings.LIMIT_PIDS
              + " needs the cgroup v2 pids controller, or the v1 one as root; RLIMIT_NPROC is"
              + " per uid and never used");
    }
    boolean cpu = cgroup.map(c -> c.limits(CgroupParent.CPU)).orElse(false);
    if (limits.milliCpus().isPresent() && cpu) {
      verified.add(IsolationCapability.CPU_LIMIT);
      diagnostics.put(
          "CPU_LIMIT",
          "cpu.max "
              + limits.cpuQuotaMicros()
              + " "
              + ResourceLimits.CPU_PERIOD_MICROS
              + " per run ("
              + limits.milliCpus().getAsLong() / 1000.0
              + " CPUs)");
    } else {
      diagnostics.put(
          "CPU_LIMIT",
          "not configured: set "
              + BwrapSettings.LIMIT_CPUS
              + " (needs the cgroup v2 cpu controller, or the v1 one as root); "
              + BwrapSettings.LIMIT_CPU_SECONDS
              + " sets RLIMIT_CPU, which limits each process, not the run");
    }
    if (limits.needsRlimits()) {
      diagnostics.put("rlimits", String.join(" ", limits.prlimitOptions()));
    }
  }

  private void check(
      Set<IsolationCapability> verified, IsolationCapability capability, boolean ok, String why) {
    if (ok) {
      verified.add(capability);
    } else {
      diagnostics.put(capability.name(), why);
    }
  }

  private static String capabilities(SandboxSelfReport report) {
    return Stream.of("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")
        .map(set -> set + "=" + report.status().get(set))
        .collect(Collectors.joining(" "));
  }
}
