package dev.capability.ledger;

import java.util.Locale;

/**
 * What a ledger record is about. Every kind is a link of the one hash chain; each has its own
 * table of queryable columns computed from the record.
 */
public enum RecordKind {
  /** One execution or denial by the kernel; the body is its attestation. */
  EXECUTION("executions"),
  /** A decision without an execution, as {@code capability check} makes. */
  DECISION("decisions"),
  /** A capability plan, for the runtime, known by its {@code fingerprint}. */
  PLAN("plans"),
  /** An approval or refusal of a recorded plan, for the runtime: its {@code fingerprint}, {@code approved}. */
  APPROVAL("approvals"),
  /** What came of a recorded plan, for the runtime: its {@code fingerprint}, a {@code status}. */
  RECEIPT("receipts"),
  /**
   * A package fetched and verified by {@code capability acquire}, accepted or refused: its {@code
   * coordinates}, {@code sha256} and {@code decision}; the body is the acquisition's JSON.
   */
  ACQUISITION("acquisitions"),
  /**
   * A revision of a repository's project contract, known by its {@code contractHash}; the body
   * holds the contract under {@code contract}.
   */
  CONTRACT("contracts"),
  /**
   * A revision of a work plan: its {@code workPlanId}, {@code revision} (unique per work plan, each
   * one more than the last) and {@code revisionHash}; the body holds the revision under {@code
   * document}.
   */
  WORK_PLAN("work_plans"),
  /**
   * What a step of a work plan's phase concluded: its {@code workPlanId}, {@code planRevision},
   * {@code phaseId}, {@code event} and the {@code executionSequences} of the launches it made; the
   * body holds the step under {@code body}.
   */
  PHASE("phases"),
  /**
   * An assumption an agent recorded: its {@code assumptionId} (unique), {@code workPlanId} and
   * {@code phaseId}; the body holds it under {@code assumption}.
   */
  ASSUMPTION("assumptions"),
  /**
   * A step of the correction of an assumption found wrong: its {@code assumptionId} (a recorded
   * assumption), {@code event} and the {@code executionSequences} of the launches it made; the
   * step's members beside them.
   */
  CORRECTION("corrections"),
  /**
   * An evaluation of candidate commits by the evaluator: its {@code evaluationId}, {@code
   * configSha256} and {@code allPassed} (a boolean); the body is the evaluation's JSON report.
   */
  EVALUATION("evaluations");

  private final String table;

  RecordKind(String table) {
    this.table = table;
  }

  /** The name stored in the chain, for example {@code execution}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The table that holds records of this kind. */
  public String table() {
    return table;
  }

  /** The kind stored as {@code id}. */
  public static RecordKind fromId(String id) {
    for (RecordKind kind : values()) {
      if (kind.id().equals(id)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("no record kind '" + id + "'; kinds are execution, decision, plan, approval, receipt, acquisition,"
        + " contract, work_plan, phase, assumption, correction, evaluation");
  }
}
