package dev.capability.ledger;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One line of {@code ledger list}: the columns people query. Columns that do not apply to the
 * record's kind are null.
 *
 * @param sequence its sequence number
 * @param kind its kind
 * @param recordedAt when the ledger recorded it
 * @param status an execution's status; {@code ALLOWED} or {@code DENIED} for a decision; an
 *     {@code APPROVED} or {@code REFUSED} for an approval; a receipt's status; {@code ACQUIRED} or
 *     {@code REFUSED} for an acquisition; a phase record's or correction record's event
 * @param exitCode an execution's exit code
 * @param executable the canonical path of the executable
 * @param backend the backend that launched (or would launch) it
 * @param policyHash the policy's hash
 * @param argv the argv of an execution or decision
 * @param planFingerprint the fingerprint of the plan a plan, approval or receipt is about
 * @param coordinates the coordinates an acquisition asked for
 * @param sha256 the SHA-256 of the artifact an acquisition fetched
 * @param decisionCode an acquisition's decision code: {@code ACQUIRED}, or why it was refused
 * @param workPlanId the work plan a work plan revision or phase record belongs to
 * @param planRevision a work plan revision's number, or the plan revision a phase record ran under
 * @param phaseId a phase record's phase
 * @param contentHash a contract's {@code contractHash} or a work plan revision's {@code revisionHash}
 */
public record EntrySummary(
    long sequence,
    RecordKind kind,
    String recordedAt,
    @Nullable String status,
    @Nullable Integer exitCode,
    @Nullable String executable,
    @Nullable String backend,
    @Nullable String policyHash,
    @Nullable List<String> argv,
    @Nullable String planFingerprint,
    @Nullable String coordinates,
    @Nullable String sha256,
    @Nullable String decisionCode,
    @Nullable String workPlanId,
    @Nullable Integer planRevision,
    @Nullable String phaseId,
    @Nullable String contentHash) {
  public EntrySummary {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(recordedAt, "recordedAt");
    argv = argv == null ? null : List.copyOf(argv);
  }
}
