package dev.capability.ledger;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.store.AcquisitionRecord;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.CorrectionVerificationRecord;
import dev.capability.kernel.api.store.InvalidationRecord;
import dev.capability.kernel.api.store.OutcomeRecord;
import dev.capability.kernel.api.store.ScopeExpansionRecord;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.DecisionRecord;
import dev.capability.kernel.api.store.EvaluationRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.ledger.internal.JsonValues;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One record to append: its kind and its body, a JSON object as plain maps and lists (what
 * {@link dev.capability.kernel.api.json.CanonicalJson} accepts). The body is copied deeply; the
 * ledger stores its RFC 8785 canonical form, and nothing else of what produced it.
 *
 * <p>Each kind requires a few body members, the ones its table indexes: an execution is an
 * attestation ({@code status}, {@code startedAt}, {@code policyHash}, {@code decision}, ...); a
 * decision has {@code decidedAt}, {@code argv} and {@code decision}; a plan its {@code
 * fingerprint}; an approval the {@code fingerprint} of the plan it decides and {@code approved}
 * (a boolean); a receipt the plan's {@code fingerprint} and a {@code status}; an acquisition its
 * {@code coordinates}, the artifact's {@code sha256} and a {@code decision} object with a boolean
 * {@code accepted} and a non-empty string {@code code}; an evaluation its {@code evaluationId}, {@code
 * configSha256} and {@code allPassed} (a boolean). Optional members the tables index too: a
 * plan's {@code planId} (unique), an approval's {@code approvalId} (unique),
 * {@code approver}, {@code reason} and {@code expiresAt}, a receipt's {@code receiptId} (unique)
 * and {@code executionSequence} (the execution record it reports), an acquisition's {@code
 * decision.policy}. Members the ledger checks against what it holds: an approval's or receipt's
 * plan {@code fingerprint} and, when present, its {@code planId} (the plan record with that id and
 * fingerprint); a receipt's {@code executionSequence} and every one of its {@code
 * executionSequences} (execution records).
 *
 * <p>The records of a work plan nest what they carry under one member, so that it reads back
 * exactly as given: a contract has its {@code contractHash} and the {@code contract} object; a
 * work plan revision its {@code workPlanId}, {@code revision} (an integer from 1), {@code
 * revisionHash} and the {@code document} object; a phase record its {@code workPlanId}, {@code
 * planRevision} (an integer from 1), {@code phaseId}, {@code event}, {@code executionSequences}
 * (an array of sequence numbers) and the {@code body} object. Members the ledger checks against
 * what it holds: a work plan's {@code revision} (not recorded yet for that work plan, and revision
 * 1 or one more than a recorded one); a phase record's work plan revision (recorded) and its
 * {@code executionSequences} (execution records).
 */
public record LedgerRecord(RecordKind kind, Map<String, @Nullable Object> body) {

  private static final Map<RecordKind, List<String>> REQUIRED_STRINGS = Map.ofEntries(
      Map.entry(RecordKind.EXECUTION, List.of("status", "startedAt", "finishedAt", "policyHash", "commandSpecHash")),
      Map.entry(RecordKind.DECISION, List.of("decidedAt")),
      Map.entry(RecordKind.PLAN, List.of("fingerprint")),
      Map.entry(RecordKind.APPROVAL, List.of("fingerprint")),
      Map.entry(RecordKind.RECEIPT, List.of("fingerprint", "status")),
      Map.entry(RecordKind.ACQUISITION, List.of("coordinates", "sha256")),
      Map.entry(RecordKind.CONTRACT, List.of("contractHash")),
      Map.entry(RecordKind.WORK_PLAN, List.of("workPlanId", "revisionHash")),
      Map.entry(RecordKind.PHASE, List.of("workPlanId", "phaseId", "event")),
      Map.entry(RecordKind.ASSUMPTION, List.of("assumptionId", "workPlanId", "phaseId")),
      Map.entry(RecordKind.CORRECTION, List.of("assumptionId", "event")),
      Map.entry(RecordKind.EVALUATION, List.of("evaluationId", "configSha256")));

  /** The member of a work plan's record that holds what it carries, read back as given. */
  private static final Map<RecordKind, String> CARRIED_OBJECT = Map.of(
      RecordKind.CONTRACT, "contract",
      RecordKind.WORK_PLAN, "document",
      RecordKind.PHASE, "body",
      RecordKind.ASSUMPTION, "assumption");

  public LedgerRecord {
    Objects.requireNonNull(kind, "kind");
    body = JsonValues.immutableObject(Objects.requireNonNull(body, "body"), "body");
    for (String name : REQUIRED_STRINGS.get(kind)) {
      if (!(body.get(name) instanceof String s) || s.isEmpty()) {
        throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID,
            "a " + kind.id() + " record needs a non-empty string member '" + name + "'");
      }
    }
    if ((kind == RecordKind.EXECUTION || kind == RecordKind.DECISION) && !(body.get("decision") instanceof Map)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a " + kind.id() + " record needs an object member 'decision'");
    }
    if (kind == RecordKind.ACQUISITION) {
      requireAcquisitionDecision(body);
    }
    if (kind == RecordKind.EVALUATION && !(body.get("allPassed") instanceof Boolean)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "an evaluation record needs a boolean member 'allPassed'");
    }
    if (kind == RecordKind.APPROVAL && !(body.get("approved") instanceof Boolean)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "an approval record needs a boolean member 'approved'");
    }
    if (kind == RecordKind.DECISION && !(body.get("argv") instanceof List)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a decision record needs an array member 'argv'");
    }
    String carried = CARRIED_OBJECT.get(kind);
    if (carried != null && !(body.get(carried) instanceof Map)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a " + kind.id() + " record needs an object member '" + carried + "'");
    }
    if (kind == RecordKind.WORK_PLAN) {
      requireRevision(kind, body, "revision");
    }
    if (kind == RecordKind.CORRECTION && !(body.get("executionSequences") instanceof List)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a correction record needs an array member 'executionSequences'");
    }
    if (kind == RecordKind.PHASE) {
      requireRevision(kind, body, "planRevision");
      if (!(body.get("executionSequences") instanceof List)) {
        throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a phase record needs an array member 'executionSequences'");
      }
    }
  }

  private static void requireRevision(RecordKind kind, Map<String, Object> body, String name) {
    Object value = body.get(name);
    boolean integral = value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
        || value instanceof BigInteger;
    if (!integral || ((Number) value).longValue() < 1 || value instanceof BigInteger b && b.bitLength() > 31
        || ((Number) value).longValue() > Integer.MAX_VALUE) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a " + kind.id() + " record needs a member '" + name
          + "' that is an integer from 1 to " + Integer.MAX_VALUE + ", was " + value);
    }
  }

  private static void requireAcquisitionDecision(Map<String, Object> body) {
    if (!(body.get("decision") instanceof Map<?, ?> decision)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "an acquisition record needs an object member 'decision'");
    }
    if (!(decision.get("accepted") instanceof Boolean)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "an acquisition record needs a boolean member 'decision.accepted'");
    }
    if (!(decision.get("code") instanceof String code) || code.isEmpty()) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "an acquisition record needs a non-empty string member 'decision.code'");
    }
  }

  /** The record of one execution or denial: its attestation, and nothing else of the result. */
  public static LedgerRecord execution(ExecutionResult result) {
    return execution(Objects.requireNonNull(result, "result").attestation());
  }

  /** The record of one execution or denial, from its attestation. */
  public static LedgerRecord execution(Attestation attestation) {
    return new LedgerRecord(RecordKind.EXECUTION, AttestationJson.toMap(Objects.requireNonNull(attestation, "attestation")));
  }

  /** The record of one launch of a capability run, from its attestation's JSON form. */
  public static LedgerRecord execution(ExecutionRecord execution) {
    return new LedgerRecord(RecordKind.EXECUTION, Objects.requireNonNull(execution, "execution").attestation());
  }

  /** The record of a decision made without an execution. */
  public static LedgerRecord decision(DecisionRecord decision) {
    Objects.requireNonNull(decision, "decision");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("argv", decision.argv());
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("allowed", decision.decision().allowed());
    d.put("code", decision.decision().code());
    d.put("layer", decision.decision().layer());
    d.put("rule", decision.decision().rule());
    d.put("argIndex", decision.decision().argIndex());
    m.put("decision", d);
    m.put("policyHash", decision.policyHash());
    if (decision.executablePath() == null) {
      m.put("executable", null);
    } else {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("path", decision.executablePath());
      e.put("sha256", decision.executableSha256());
      m.put("executable", e);
    }
    m.put("backend", decision.backendId());
    m.put("decidedAt", decision.decidedAt().toString());
    return new LedgerRecord(RecordKind.DECISION, m);
  }

  /** The record of a capability run's plan: {@code planId}, {@code fingerprint}, {@code capability} and the {@code plan}. */
  public static LedgerRecord plan(PlanRecord plan) {
    Objects.requireNonNull(plan, "plan");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("planId", plan.planId());
    m.put("fingerprint", plan.fingerprint());
    m.put("capability", plan.capability());
    m.put("plan", plan.plan());
    return new LedgerRecord(RecordKind.PLAN, m);
  }

  /** The record of an approval or refusal of a recorded plan. */
  public static LedgerRecord approval(ApprovalRecord approval) {
    Objects.requireNonNull(approval, "approval");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("approvalId", approval.approvalId());
    m.put("planId", approval.planId());
    m.put("fingerprint", approval.planFingerprint());
    m.put("approved", approval.approved());
    m.put("approver", approval.approver());
    m.put("reason", approval.reason());
    m.put("effects", approval.effects());
    return new LedgerRecord(RecordKind.APPROVAL, m);
  }

  /**
   * The record of a capability run's receipt: the receipt's JSON with its {@code receiptId}, its
   * plan's {@code planId}, the {@code executionSequences} of its launches and, for the indexed
   * column, the first of them as {@code executionSequence} (null when nothing was launched).
   */
  public static LedgerRecord receipt(ReceiptRecord receipt) {
    Objects.requireNonNull(receipt, "receipt");
    Map<String, Object> m = new LinkedHashMap<>(receipt.receipt());
    m.put("receiptId", receipt.receiptId());
    m.put("planId", receipt.planId());
    m.put("fingerprint", receipt.planFingerprint());
    m.put("status", receipt.status());
    m.put("executionSequences", receipt.executionSequences());
    m.put("executionSequence", receipt.executionSequences().isEmpty() ? null : receipt.executionSequences().get(0));
    return new LedgerRecord(RecordKind.RECEIPT, m);
  }

  /** The record of an evaluation: its whole JSON report. */
  public static LedgerRecord evaluation(EvaluationRecord evaluation) {
    return new LedgerRecord(RecordKind.EVALUATION, Objects.requireNonNull(evaluation, "evaluation").report());
  }

  /** The record of an acquisition: its whole JSON document. */
  public static LedgerRecord acquisition(AcquisitionRecord acquisition) {
    return new LedgerRecord(RecordKind.ACQUISITION, Objects.requireNonNull(acquisition, "acquisition").acquisition());
  }

  /** The record of a revision of the project contract: its {@code contractHash} and the {@code contract}. */
  public static LedgerRecord contract(ContractRecord contract) {
    Objects.requireNonNull(contract, "contract");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("contractHash", contract.contractHash());
    m.put("contract", contract.contract());
    return new LedgerRecord(RecordKind.CONTRACT, m);
  }

  /**
   * The record of a work plan revision: its {@code workPlanId}, {@code revision}, {@code
   * revisionHash} and the revision's {@code document}.
   */
  public static LedgerRecord workPlan(WorkPlanRecord revision) {
    Objects.requireNonNull(revision, "revision");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workPlanId", revision.workPlanId());
    m.put("revision", revision.revision());
    m.put("revisionHash", revision.revisionHash());
    m.put("document", revision.document());
    return new LedgerRecord(RecordKind.WORK_PLAN, m);
  }

  /**
   * The record of what a step of a phase concluded: its {@code workPlanId}, {@code planRevision},
   * {@code phaseId}, {@code event}, the {@code executionSequences} of its launches and the step's
   * {@code body}.
   */
  public static LedgerRecord phase(PhaseRecord phase) {
    Objects.requireNonNull(phase, "phase");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workPlanId", phase.workPlanId());
    m.put("planRevision", phase.planRevision());
    m.put("phaseId", phase.phaseId());
    m.put("event", phase.event());
    m.put("executionSequences", phase.executionSequences());
    m.put("body", phase.body());
    return new LedgerRecord(RecordKind.PHASE, m);
  }

  /**
   * The record of an assumption: its {@code assumptionId}, {@code workPlanId}, {@code phaseId} and
   * the {@code assumption}.
   */
  public static LedgerRecord assumption(AssumptionRecord assumption) {
    Objects.requireNonNull(assumption, "assumption");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("assumptionId", assumption.assumptionId());
    m.put("workPlanId", assumption.workPlanId());
    m.put("phaseId", assumption.phaseId());
    m.put("assumption", assumption.assumption());
    return new LedgerRecord(RecordKind.ASSUMPTION, m);
  }

  /**
   * The record of a step of a correction: its {@code assumptionId}, {@code event} and {@code
   * executionSequences}, then the step's own members: an invalidation's {@code rootCause}, {@code
   * radius} and {@code details}; an expansion's {@code paths} and {@code justification}; a
   * verification's {@code passed} and {@code details}; an outcome's {@code reason} and, when it has
   * one, {@code verificationSequence}.
   */
  public static LedgerRecord correction(CorrectionRecord correction) {
    Objects.requireNonNull(correction, "correction");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("assumptionId", correction.assumptionId());
    m.put("event", correction.event());
    if (correction instanceof InvalidationRecord i) {
      m.put("executionSequences", List.of());
      m.put("rootCause", i.rootCause());
      m.put("radius", i.radius());
      m.put("details", i.details());
    } else if (correction instanceof ScopeExpansionRecord e) {
      m.put("executionSequences", List.of());
      m.put("paths", e.paths());
      m.put("justification", e.justification());
    } else if (correction instanceof CorrectionVerificationRecord v) {
      m.put("executionSequences", v.executionSequences());
      m.put("passed", v.passed());
      m.put("details", v.details());
    } else {
      OutcomeRecord o = (OutcomeRecord) correction;
      m.put("executionSequences", List.of());
      o.verificationSequence().ifPresent(seq -> m.put("verificationSequence", seq));
      m.put("reason", o.reason());
    }
    return new LedgerRecord(RecordKind.CORRECTION, m);
  }

  /**
   * A record of any kind from its body, for example a plan, approval or receipt of the capability
   * runtime, or an acquisition (the parsed JSON of {@code Acquisition.toJson()}).
   */
  public static LedgerRecord of(RecordKind kind, Map<String, @Nullable Object> body) {
    return new LedgerRecord(kind, body);
  }
}
