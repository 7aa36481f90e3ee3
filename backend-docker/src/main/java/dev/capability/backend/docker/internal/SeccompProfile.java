package dev.capability.backend.docker.internal;

import dev.capability.backend.support.SandboxSyscallPolicy;
import dev.capability.backend.support.SandboxSyscallPolicy.DeniedSocketFamily;
import dev.capability.backend.support.SandboxSyscallPolicy.DeniedSyscall;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.json.CanonicalJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The project's seccomp policy ({@link SandboxSyscallPolicy}) as a Docker seccomp profile, passed
 * with every container as {@code seccomp=<json>} in {@code HostConfig.SecurityOpt}. It replaces
 * the daemon's default profile (see docs/decisions.md): everything the policy does not name is
 * allowed, and what the default profile denies beyond it stays out of reach through the dropped
 * capabilities and the policy's own denial of new namespaces.
 *
 * <ul>
 *   <li>{@code defaultAction} {@code SCMP_ACT_ALLOW}; each denied call {@code SCMP_ACT_ERRNO} with
 *       the policy's {@code errnoRet}.
 *   <li>{@code clone}: one rule per namespace flag, {@code SCMP_CMP_MASKED_EQ} on the first
 *       argument (seccomp compares masked values only for equality).
 *   <li>{@code socket}: one rule per denied family on the first argument; where the policy keeps one
 *       protocol, the rule also requires the third argument to differ from it.
 *   <li>{@code socketcall}, the 32-bit multiplexer whose arguments lie in memory a filter cannot
 *       read, is denied, so that no ABI reaches a denied family around the {@code socket} rules.
 *   <li>{@code archMap}: the native architecture and its 32-bit ones, for x86-64 and arm64; the
 *       daemon picks the entry of its own architecture, and the rules hold for every ABI of it.
 * </ul>
 *
 * The text is canonical JSON, so one policy and network mode give one digest.
 */
final class SeccompProfile {
  private static final String ERRNO = "SCMP_ACT_ERRNO";

  private SeccompProfile() {}

  /** The profile for a container with {@code network}, as canonical JSON. */
  static String json(NetworkMode network) {
    return CanonicalJson.serialize(profile(network));
  }

  /** The SHA-256 of {@link #json}, in hexadecimal. */
  static String sha256(NetworkMode network) {
    return CanonicalJson.sha256(profile(network));
  }

  private static Map<String, Object> profile(NetworkMode network) {
    List<Object> rules = new ArrayList<>();
    for (DeniedSyscall denied : SandboxSyscallPolicy.deniedSyscalls()) {
      rules.add(rule(denied.name(), denied.errno(), List.of()));
    }
    for (long flag : SandboxSyscallPolicy.NAMESPACE_CLONE_FLAGS) {
      rules.add(
          rule(
              "clone",
              SandboxSyscallPolicy.EPERM,
              List.of(condition(0, flag, flag, "SCMP_CMP_MASKED_EQ"))));
    }
    for (DeniedSocketFamily family : SandboxSyscallPolicy.deniedSocketFamilies(network)) {
      List<Object> conditions = new ArrayList<>();
      conditions.add(condition(0, family.family(), 0, "SCMP_CMP_EQ"));
      family
          .allowedProtocol()
          .ifPresent(protocol -> conditions.add(condition(2, protocol, 0, "SCMP_CMP_NE")));
      rules.add(rule("socket", SandboxSyscallPolicy.EAFNOSUPPORT, conditions));
    }
    rules.add(rule("socketcall", SandboxSyscallPolicy.EPERM, List.of()));
    Map<String, Object> profile = new LinkedHashMap<>();
    profile.put("defaultAction", "SCMP_ACT_ALLOW");
    profile.put(
        "archMap",
        List.of(
            architecture("SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"),
            architecture("SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM")));
    profile.put("syscalls", rules);
    return profile;
  }

  private static Map<String, Object> rule(String name, int errno, List<Object> conditions) {
    Map<String, Object> rule = new LinkedHashMap<>();
    rule.put("names", List.of(name));
    rule.put("action", ERRNO);
    rule.put("errnoRet", errno);
    rule.put("args", conditions);
    return rule;
  }

  private static Map<String, Object> condition(int index, long value, long valueTwo, String op) {
    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("index", index);
    condition.put("value", value);
    condition.put("valueTwo", valueTwo);
    condition.put("op", op);
    return condition;
  }

  private static Map<String, Object> architecture(String nativeArchitecture, String... subArchitectures) {
    return Map.of("architecture", nativeArchitecture, "subArchitectures", List.of(subArchitectures));
  }
}
