package dev.capability.evaluator;

import dev.capability.evaluator.internal.ReportWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What an evaluation found, as written to {@code report.json} and {@code report.html} in the
 * output directory and recorded in the evaluation store.
 *
 * @param evaluationId this run's id
 * @param config the configuration it ran
 * @param policySha256 the hash of the operator policy every command was decided under
 * @param startedAt when the run started
 * @param finishedAt when the last candidate was done
 * @param interrupted whether the run was interrupted, so some cells were not run
 * @param prunedWorktrees the worktrees of earlier runs found in the output directory and removed before this one
 * @param candidates one per configured candidate, in the configuration's order
 * @param reportJson the JSON report written
 * @param reportHtml the HTML report written
 */
public record EvaluationReport(
    String evaluationId,
    EvaluationConfig config,
    String policySha256,
    Instant startedAt,
    Instant finishedAt,
    boolean interrupted,
    List<String> prunedWorktrees,
    List<CandidateResult> candidates,
    Path reportJson,
    Path reportHtml) {

  public EvaluationReport {
    Objects.requireNonNull(evaluationId, "evaluationId");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(policySha256, "policySha256");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    prunedWorktrees = List.copyOf(prunedWorktrees);
    candidates = List.copyOf(candidates);
    Objects.requireNonNull(reportJson, "reportJson");
    Objects.requireNonNull(reportHtml, "reportHtml");
  }

  /** True when the run was not interrupted and every command passed on every candidate. */
  public boolean allPassed() {
    return !interrupted && candidates.stream().allMatch(CandidateResult::passed);
  }

  /**
   * The report's JSON form, exactly what {@code report.json} holds and the evaluation store
   * records: plain maps, lists, strings, numbers and booleans. Its members are described in
   * {@code docs/evaluator-design.md}.
   */
  public Map<String, @Nullable Object> toJson() {
    return ReportWriter.json(this);
  }

  /** True when some command was denied by the policy on some candidate. */
  public boolean anyDenied() {
    return cells().stream().anyMatch(c -> c.outcome() == CellOutcome.DENIED);
  }

  /** Every cell, candidate by candidate. */
  public List<CellResult> cells() {
    List<CellResult> all = new ArrayList<>();
    candidates.forEach(c -> all.addAll(c.cells()));
    return all;
  }

  /** The result of the candidate named {@code name}. */
  public CandidateResult candidate(String name) {
    return candidates.stream().filter(c -> c.candidate().name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no candidate named '" + name + "'"));
  }

  /** The baseline's result; null when the configuration names no baseline. */
  public @Nullable CandidateResult baseline() {
    return config.baseline() == null ? null : candidate(config.baseline());
  }

  /**
   * The cells of other candidates whose command passed on the baseline and did not pass on them,
   * candidate by candidate; empty without a baseline.
   */
  public List<CellResult> regressions() {
    CandidateResult baseline = baseline();
    if (baseline == null) {
      return List.of();
    }
    List<CellResult> regressions = new ArrayList<>();
    for (CandidateResult candidate : candidates) {
      if (candidate == baseline) {
        continue;
      }
      for (CellResult cell : candidate.cells()) {
        if (baseline.cell(cell.command()).passed() && !cell.passed()) {
          regressions.add(cell);
        }
      }
    }
    return regressions;
  }
}
