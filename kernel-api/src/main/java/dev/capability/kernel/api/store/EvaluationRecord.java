package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One evaluation: candidate commits, each checked out in its own worktree, against the same
 * commands, with every cell's status, digests and attestation.
 *
 * @param evaluationId the evaluation's id, unique per run
 * @param configSha256 the SHA-256 of the configuration file's bytes, as {@code sha256:<hex>}
 * @param allPassed whether every command passed on every candidate
 * @param report the evaluation's whole JSON report, which holds the members above, as plain maps,
 *     lists, strings, numbers and booleans
 */
public record EvaluationRecord(String evaluationId, String configSha256, boolean allPassed, Map<String, @Nullable Object> report) {
  public EvaluationRecord {
    Records.requireText(evaluationId, "evaluationId");
    Records.requireText(configSha256, "configSha256");
    report = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(report, "report")));
    if (!evaluationId.equals(report.get("evaluationId")) || !configSha256.equals(report.get("configSha256"))
        || !Boolean.valueOf(allPassed).equals(report.get("allPassed"))) {
      throw new IllegalArgumentException("the report must hold the same evaluationId, configSha256 and allPassed as the record");
    }
  }

  /** The record of an evaluation's JSON report: its {@code evaluationId}, {@code configSha256} and {@code allPassed}. */
  public static EvaluationRecord of(Map<String, @Nullable Object> report) {
    Objects.requireNonNull(report, "report");
    if (!(report.get("evaluationId") instanceof String id) || !(report.get("configSha256") instanceof String sha)
        || !(report.get("allPassed") instanceof Boolean allPassed)) {
      throw new IllegalArgumentException(
          "an evaluation report has a string 'evaluationId', a string 'configSha256' and a boolean 'allPassed'");
    }
    return new EvaluationRecord(id, sha, allPassed, report);
  }
}
