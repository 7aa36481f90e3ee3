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

  /** The error {@code clone3} returns, so that the C library falls back to {@code clone}. */
  public static final int ENOSYS = 38;

  /**
   * The {@code clone} flags that create namespaces ({@code CLONE_NEWNS}, {@code CLONE_NEWCGROUP},
   * {@code CLONE_NEWUTS}, {@code CLONE_NEWIPC}, {@code CLONE_NEWUSER}, {@code CLONE_NEWPID},
   * {@code CLONE_NEWNET}): a {@code clone} whose first argument has any of them is denied, one bit
   * per rule, since seccomp compares masked values only for equality.
   */
  public static final List<Long> NAMESPACE_CLONE_FLAGS =
      List.of(0x20000L, 0x02000000L, 0x04000000L, 0x08000000L, 0x10000000L, 0x20000000L, 0x40000000L);

  private static final String KEYS = "the kernel keyrings are not namespaced";
  private static final String NAMESPACES =
      "new namespaces (a user namespace above all) reopen what the sandbox closed";
  private static final String MOUNTS = "reshapes the sandbox's filesystem";

  private static final List<DeniedSyscall> DENIED =
      List.of(
          new DeniedSyscall("io_uring_setup", EPERM, "io_uring: a large kernel surface"),
          new DeniedSyscall("io_uring_enter", EPERM, "io_uring: a large kernel surface"),
          new DeniedSyscall("io_uring_register", EPERM, "io_uring: a large kernel surface"),
          new DeniedSyscall("userfaultfd", EPERM, "stalls kernel code paths; a staple of exploits"),
          new DeniedSyscall("perf_event_open", EPERM, "kernel profiling; side channels"),
          new DeniedSyscall("bpf", EPERM, "loads programs into the kernel"),
          new DeniedSyscall("keyctl", EPERM, KEYS),
          new DeniedSyscall("add_key", EPERM, KEYS),
          new DeniedSyscall("request_key", EPERM, KEYS),
          new DeniedSyscall("init_module", EPERM, "loads kernel modules"),
          new DeniedSyscall("finit_module", EPERM, "loads kernel modules"),
          new DeniedSyscall("delete_module", EPERM, "unloads kernel modules"),
          new DeniedSyscall("kexec_load", EPERM, "replaces the running kernel"),
          new DeniedSyscall("kexec_file_load", EPERM, "replaces the running kernel"),
          new DeniedSyscall("unshare", EPERM, NAMESPACES),
          new DeniedSyscall("setns", EPERM, NAMESPACES),
          new DeniedSyscall("clone3", ENOSYS, "its flags cannot be inspected; clone is used"),
          new DeniedSyscall("mount", EPERM, MOUNTS),
          new DeniedSyscall("umount2", EPERM, MOUNTS),
          new DeniedSyscall("pivot_root", EPERM, MOUNTS),
          new DeniedSyscall("open_tree", EPERM, MOUNTS),
          new DeniedSyscall("move_mount", EPERM, MOUNTS),
          new DeniedSyscall("fsopen", EPERM, MOUNTS),
          new DeniedSyscall("fsconfig", EPERM, MOUNTS),
          new DeniedSyscall("fsmount", EPERM, MOUNTS),
          new DeniedSyscall("fspick", EPERM, MOUNTS),
          new DeniedSyscall("mount_setattr", EPERM, MOUNTS));

  private SandboxSyscallPolicy() {}

  /** The system calls denied outright, each with its error, in a fixed order. */
  public static List<DeniedSyscall> deniedSyscalls() {
    return DENIED;
  }

  /**
   * The socket families denied with {@link #EAFNOSUPPORT} for a run with {@code network}. Netlink
   * is denied outright unless the network is the host's; with it, only its routing protocol stays,
   * which name resolution and interface queries need. {@link NetworkMode#FILTERED} is treated as
   * no network: its namespace has only loopback, names are resolved by the proxy, and the relay
   * and the command need only {@code AF_INET}/{@code AF_INET6} sockets on loopback and {@code
   * AF_UNIX}, which no mode denies.
   */
  public static List<DeniedSocketFamily> deniedSocketFamilies(NetworkMode network) {
    Objects.requireNonNull(network, "network");
    OptionalInt netlinkException =
        network == NetworkMode.HOST ? OptionalInt.of(NETLINK_ROUTE) : OptionalInt.empty();
    return List.of(
        new DeniedSocketFamily(40, "AF_VSOCK", OptionalInt.empty()),
        new DeniedSocketFamily(17, "AF_PACKET", OptionalInt.empty()),
        new DeniedSocketFamily(16, "AF_NETLINK", netlinkException));
  }

  /**
   * One system call the policy denies.
   *
   * @param name its name as libseccomp and Docker profiles spell it
   * @param errno the error it returns
   * @param reason why, for the documentation and {@code doctor}
   */
  public record DeniedSyscall(String name, int errno, String reason) {
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
