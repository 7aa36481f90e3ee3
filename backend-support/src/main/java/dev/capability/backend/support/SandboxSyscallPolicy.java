package dev.capability.backend.support;

import dev.capability.kernel.api.NetworkMode;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The project's own seccomp policy for sandboxed commands, one list for every backend that
 * advertises {@code SECCOMP}: each backend turns it into its engine's form (a Docker profile, a
 * libseccomp filter for bwrap) and advertises {@code SECCOMP} only when this policy is the one
 * applied. Everything not named here is allowed: the namespaces, the dropped capabilities and the
 * read-only mounts do the rest; these are the kernel interfaces that stay reachable without
 * capabilities and have a record of local privilege escalation, or reach past the sandbox.
 */
public final class SandboxSyscallPolicy {
  /** The error a denied system call returns. */
  public static final int EPERM = 1;

  /** The error a socket of a denied family returns. */
  public static final int EAFNOSUPPORT = 97;

  /** The Netlink protocol that routing and address queries (glibc's resolver) use. */
  public static final int NETLINK_ROUTE = 0;

  private static final List<DeniedSyscall> DENIED =
      List.of(
          new DeniedSyscall("io_uring_setup", "io_uring: a large kernel surface, and unaudited I/O"),
          new DeniedSyscall("io_uring_enter", "io_uring"),
          new DeniedSyscall("io_uring_register", "io_uring"),
          new DeniedSyscall("userfaultfd", "stalls kernel code paths; a staple of exploits"),
          new DeniedSyscall("perf_event_open", "kernel and hardware profiling; side channels"),
          new DeniedSyscall("bpf", "loads programs into the kernel"),
          new DeniedSyscall("keyctl", "the kernel keyrings are not namespaced"),
          new DeniedSyscall("add_key", "the kernel keyrings are not namespaced"),
          new DeniedSyscall("request_key", "the kernel keyrings are not namespaced"),
          new DeniedSyscall("init_module", "loads kernel modules"),
          new DeniedSyscall("finit_module", "loads kernel modules"),
          new DeniedSyscall("delete_module", "unloads kernel modules"),
          new DeniedSyscall("kexec_load", "replaces the running kernel"),
          new DeniedSyscall("kexec_file_load", "replaces the running kernel"));

  private SandboxSyscallPolicy() {}

  /** The system calls denied with {@link #EPERM}, in a fixed order. */
  public static List<DeniedSyscall> deniedSyscalls() {
    return DENIED;
  }

  /**
   * The socket families denied with {@link #EAFNOSUPPORT} for a run with {@code network}. Netlink
   * is denied outright without a network; with one, only its routing protocol stays, which name
   * resolution and interface queries need.
   */
  public static List<DeniedSocketFamily> deniedSocketFamilies(NetworkMode network) {
    Objects.requireNonNull(network, "network");
    OptionalInt netlinkException =
        network == NetworkMode.NONE ? OptionalInt.empty() : OptionalInt.of(NETLINK_ROUTE);
    return List.of(
        new DeniedSocketFamily(40, "AF_VSOCK", OptionalInt.empty()),
        new DeniedSocketFamily(17, "AF_PACKET", OptionalInt.empty()),
        new DeniedSocketFamily(16, "AF_NETLINK", netlinkException));
  }

  /**
   * One system call the policy denies.
   *
   * @param name its name as libseccomp and Docker profiles spell it
   * @param reason why, for the documentation and {@code doctor}
   */
  public record DeniedSyscall(String name, String reason) {
    public DeniedSyscall {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * One socket family {@code socket(2)} refuses (its first argument).
   *
   * @param family the {@code AF_*} number
   * @param name the {@code AF_*} name
   * @param allowedProtocol the one protocol (third argument) still allowed, if any
   */
  public record DeniedSocketFamily(int family, String name, OptionalInt allowedProtocol) {
    public DeniedSocketFamily {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(allowedProtocol, "allowedProtocol");
    }
  }
}
