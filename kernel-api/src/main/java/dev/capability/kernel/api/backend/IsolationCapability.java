package dev.capability.kernel.api.backend;

/**
 * What a backend can promise about a launched command. A backend advertises a capability only
 * after it verified on this machine that it can deliver it; a request that requires a capability
 * the chosen backend lacks fails before launch.
 *
 * <p>Baseline guarantees that every backend must keep (argv without a shell, exact environment,
 * wall-clock timeout, bounded output) are not capabilities: they are the backend contract.
 */
public enum IsolationCapability {
  /** The command runs in its own session; a timeout ends that session and every descendant. */
  SESSION_TERMINATION,
  /** A timeout ends every process the command started, including ones that left its session. */
  TREE_TERMINATION,
  /**
   * When the host JVM dies, even killed with {@code SIGKILL}, the command and every process it
   * started end with it; nothing of the run outlives its host.
   */
  TERMINATION_ON_HOST_EXIT,
  /** The command cannot see or signal host processes. */
  PID_NAMESPACE,
  /** The command runs in its own user namespace. */
  USER_NAMESPACE,
  /** The command has its own System V IPC and POSIX message queues. */
  IPC_NAMESPACE,
  /** The command has its own host name. */
  UTS_NAMESPACE,
  /** The command has its own cgroup namespace. */
  CGROUP_NAMESPACE,
  /** The command can be given no network at all, loopback included. */
  NETWORK_NAMESPACE,
  /**
   * The command can be confined to the host's egress proxy: no network of its own, and the proxy's
   * Unix socket ({@link LaunchSpec#egressSocket()}) relayed to {@code 127.0.0.1:3128} inside it.
   */
  FILTERED_EGRESS,
  /** Host sockets reachable by path (Docker, D-Bus, agents) are absent from the command's view. */
  HOST_SOCKETS_HIDDEN,
  /** The root filesystem is read-only to the command. */
  READ_ONLY_ROOT,
  /** The repository is read-only to the command except for its write-scope roots. */
  READ_ONLY_REPOSITORY,
  /** Only the effective write-scope roots are writable. */
  WRITABLE_SCOPE_ROOTS,
  /** The command gets a private, size-limited {@code /tmp}. */
  PRIVATE_TMP,
  /** The command holds no Linux capabilities. */
  CAPABILITY_DROP,
  /** The command cannot gain privileges through set-uid binaries or file capabilities. */
  NO_NEW_PRIVILEGES,
  /** The command never runs with real-root authority over host files. */
  NON_ROOT,
  /** The command cannot create nested user namespaces. */
  NO_NESTED_USER_NAMESPACES,
  /** Memory use is limited per run. */
  MEMORY_LIMIT,
  /** The number of processes is limited per run. */
  PID_LIMIT,
  /** CPU use is limited per run. */
  CPU_LIMIT,
  /**
   * Every file a process of the command writes is limited to the spec's {@code maxFileBytes}
   * ({@code RLIMIT_FSIZE}); a command ended by {@code SIGXFSZ} for it is reported as {@link
   * ResourceBound#FILE_SIZE}.
   */
  FILE_SIZE_LIMIT,
  /**
   * What the command adds to its writable roots is measured while it runs; growth beyond the
   * spec's {@code maxWriteBytes} ends it and is reported as {@link ResourceBound#WRITE_BUDGET}.
   */
  WRITE_BUDGET,
  /** A seccomp filter restricts system calls. */
  SECCOMP,
  /**
   * The backend cannot bind host paths and runs the repository it is given as a {@link
   * ShippedWorkspace} ({@link LaunchSpec#workspace()}): the input shipped in, the writable roots
   * brought back to the kernel, which applies them under archive checks and audits the run.
   */
  REMOTE_WORKSPACE
}
