package dev.capability.capability.runtime;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A package's classes reference APIs for effects its manifest does not declare ({@link
 * CapabilityCodes#EFFECT_UNDECLARED}). A match would prove nothing; this mismatch is a refusal.
 */
public final class UndeclaredEffectException extends PackageRefusedException {
  private static final long serialVersionUID = 1L;
  private final transient List<EffectFinding> findings;

  public UndeclaredEffectException(String module, List<EffectFinding> findings) {
    super(
        CapabilityCodes.EFFECT_UNDECLARED,
        "module '" + module + "' references APIs for undeclared effects: "
            + findings.stream().limit(10).map(EffectFinding::toString).collect(Collectors.joining("; "))
            + (findings.size() > 10 ? "; and " + (findings.size() - 10) + " more" : ""));
    this.findings = List.copyOf(findings);
  }

  /** Every offending reference, in class order. */
  public List<EffectFinding> findings() {
    return findings;
  }
}
