package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.SandboxSyscallPolicy;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.linux.SeccompFilter;
import dev.capability.linux.SeccompFilter.Condition;
import java.util.EnumMap;
import java.util.Map;

/**
 * The project's {@link SandboxSyscallPolicy} as the seccomp programs bwrap loads with {@code
 * --seccomp FD}, one per network mode, compiled once by libseccomp when the backend is made.
 */
final class SandboxSeccomp {
  private final Map<NetworkMode, byte[]> programs;

  private SandboxSeccomp(Map<NetworkMode, byte[]> programs) {
    this.programs = programs;
  }

  /**
   * Compiles the policy for every network mode.
   *
   * @throws dev.capability.linux.SeccompException when libseccomp is unavailable or refuses a rule
   */
  static SandboxSeccomp compile() {
    Map<NetworkMode, byte[]> programs = new EnumMap<>(NetworkMode.class);
    for (NetworkMode network : NetworkMode.values()) {
      programs.put(network, filter(network).toBpf());
    }
    return new SandboxSeccomp(programs);
  }

  /** The policy's filter for a run with {@code network}. */
  static SeccompFilter filter(NetworkMode network) {
    SeccompFilter.Builder builder = SeccompFilter.builder();
    for (SandboxSyscallPolicy.DeniedSyscall denied : SandboxSyscallPolicy.deniedSyscalls()) {
      builder.deny(denied.name(), denied.errno());
    }
    for (long flag : SandboxSyscallPolicy.NAMESPACE_CLONE_FLAGS) {
      builder.deny("clone", SandboxSyscallPolicy.EPERM, Condition.maskedEqual(0, flag, flag));
    }
    for (SandboxSyscallPolicy.DeniedSocketFamily family :
        SandboxSyscallPolicy.deniedSocketFamilies(network)) {
      Condition isFamily = Condition.intEqual(0, family.family());
      if (family.allowedProtocol().isPresent()) {
        builder.deny(
            "socket",
            SandboxSyscallPolicy.EAFNOSUPPORT,
            isFamily,
            Condition.notEqual(2, family.allowedProtocol().getAsInt()));
      } else {
        builder.deny("socket", SandboxSyscallPolicy.EAFNOSUPPORT, isFamily);
      }
    }
    return builder.build();
  }

  /** The compiled program for a run with {@code network}. */
  byte[] program(NetworkMode network) {
    return programs.get(network).clone();
  }
}
