package dev.capability.kernel.api.store;

/**
 * One step of the correction of an assumption found wrong. The steps, in the order they happen:
 * the {@link InvalidationRecord invalidation}, any {@link ScopeExpansionRecord expansions} and
 * {@link CorrectionVerificationRecord verifications}, and the {@link OutcomeRecord outcome}.
 */
public sealed interface CorrectionRecord
    permits InvalidationRecord, ScopeExpansionRecord, CorrectionVerificationRecord, OutcomeRecord {

  /** The assumption corrected. */
  String assumptionId();

  /** What the step was: {@code INVALIDATED}, {@code SCOPE_EXPANDED}, {@code VERIFIED}, {@code VERIFICATION_FAILED}, {@code RESOLVED} or {@code ABANDONED}. */
  String event();
}
