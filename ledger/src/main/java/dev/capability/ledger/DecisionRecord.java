package dev.capability.ledger;

import dev.capability.kernel.api.Attestation.DecisionSummary;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A decision made without running anything, as {@code capability check} makes: the argv, the
 * decision, and what would have run. Fields that were not reached are null.
 *
 * @param argv the argv as parsed; empty when the command string was refused
 * @param decision the decision, naming the layer and rule
 * @param policyHash SHA-256 of the policy's canonical JSON, when known
 * @param executablePath the canonical path of the executable, once resolved
 * @param executableSha256 its SHA-256, once resolved
 * @param backendId the backend that would have launched it, once selected
 * @param decidedAt when the decision was made
 */
public record DecisionRecord(
    List<String> argv,
    DecisionSummary decision,
    String policyHash,
    String executablePath,
    String executableSha256,
    String backendId,
    Instant decidedAt) {

  public DecisionRecord {
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(decidedAt, "decidedAt");
    if ((executablePath == null) != (executableSha256 == null)) {
      throw new IllegalArgumentException("executablePath and executableSha256 come together");
    }
  }

  /** The JSON body stored in the ledger. */
  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("argv", argv);
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("allowed", decision.allowed());
    d.put("code", decision.code());
    d.put("layer", decision.layer());
    d.put("rule", decision.rule());
    d.put("argIndex", decision.argIndex());
    m.put("decision", d);
    m.put("policyHash", policyHash);
    if (executablePath == null) {
      m.put("executable", null);
    } else {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("path", executablePath);
      e.put("sha256", executableSha256);
      m.put("executable", e);
    }
    m.put("backend", backendId);
    m.put("decidedAt", decidedAt.toString());
    return m;
  }
}
