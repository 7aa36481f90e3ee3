package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.policy.BoundedApprovals;
import dev.capability.capability.runtime.internal.policy.DecisionPoint;
import dev.capability.capability.runtime.internal.policy.DenyAllPolicy;
import dev.capability.capability.runtime.internal.policy.PermissivePolicy;
import dev.capability.capability.runtime.internal.policy.PolicyFileParser;
import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/** The built-in policies and the single, fail-closed point where any policy is asked. */
public final class EffectPolicies {
  /** How long the permissive policy waits for an approval by default. */
  public static final Duration DEFAULT_APPROVAL_TIMEOUT = Duration.ofMinutes(5);

  private EffectPolicies() {}

  /** The default: no effect is granted; a capability that declares none may still run. */
  public static EffectPolicy denyAll() {
    return new DenyAllPolicy();
  }

  /** Grants declared effects, asking {@code handler} for every mutating or open-world one. */
  public static EffectPolicy permissive(ApprovalHandler handler) {
    return permissive(handler, DEFAULT_APPROVAL_TIMEOUT);
  }

  /** As {@link #permissive(ApprovalHandler)}, waiting at most {@code timeout} for each answer. */
  public static EffectPolicy permissive(ApprovalHandler handler, Duration timeout) {
    Objects.requireNonNull(handler, "handler");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive");
    }
    return new PermissivePolicy(new BoundedApprovals(handler, timeout));
  }

  /**
   * Reads an operator's policy file (docs/schemas/effect-policy.schema.json): it grants exactly the
   * listed effects, optionally only to the listed capabilities, and denies any plan that requests
   * one more. The file must be a regular file (not a symbolic link) that neither group nor others
   * may write, since whoever can edit it holds every authority it grants. Its hash is over its
   * content, so any edit makes earlier plans drift.
   *
   * @throws CapabilityException {@code POLICY_FILE_INVALID} naming the file and what is wrong
   */
  public static EffectPolicy load(Path file) {
    Objects.requireNonNull(file, "file");
    Path absolute = file.toAbsolutePath();
    try {
      PosixFileAttributes attributes = Files.readAttributes(absolute, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attributes.isRegularFile()) {
        throw new CapabilityException(CapabilityCodes.POLICY_FILE_INVALID, absolute + " is not a regular file (symbolic links are refused)");
      }
      if (attributes.size() > PolicyFileParser.MAX_BYTES) {
        throw new CapabilityException(
            CapabilityCodes.POLICY_FILE_INVALID, absolute + " has " + attributes.size() + " bytes; the limit is " + PolicyFileParser.MAX_BYTES);
      }
      Set<PosixFilePermission> permissions = attributes.permissions();
      if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
        throw new CapabilityException(
            CapabilityCodes.POLICY_FILE_INVALID, absolute + " may be written by group or others; chmod go-w it");
      }
      return PolicyFileParser.parse(Files.readAllBytes(absolute), absolute.toString());
    } catch (IOException e) {
      throw new CapabilityException(CapabilityCodes.POLICY_FILE_INVALID, "cannot read the policy file " + absolute + ": " + e.getMessage());
    }
  }

  /** Parses a policy file's text; {@code source} names it in errors. See {@link #load(Path)}. */
  public static EffectPolicy parse(String json, String source) {
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(source, "source");
    return PolicyFileParser.parse(json.getBytes(StandardCharsets.UTF_8), source);
  }

  /**
   * Asks {@code policy} about {@code plan}. Never throws for the policy's faults: a policy that
   * throws, answers null, answers for another plan, grants unrequested effects, or whose hash is
   * not the one the plan was made for, yields a denial.
   */
  public static PolicyDecision decide(EffectPolicy policy, CapabilityPlan plan) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(plan, "plan");
    return DecisionPoint.decide(policy, plan);
  }
}
