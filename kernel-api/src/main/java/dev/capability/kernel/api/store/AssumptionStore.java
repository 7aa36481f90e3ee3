package dev.capability.kernel.api.store;

import java.util.List;

/**
 * Where a work plan's assumptions and their corrections live: each assumption an agent recorded,
 * and for an assumption found wrong its invalidation (with the correction radius computed from the
 * recorded links), each justified expansion of that radius, each verification of the correction,
 * and the outcome. Nothing is updated in place; an assumption's state is what its records say, in
 * the order recorded.
 *
 * <p>Each {@code record...} method stores what it is given durably before returning and returns
 * the record's sequence number in the store (from 1, increasing). A store refuses an assumption
 * whose id it holds already, and a correction record of an assumption it does not hold. Reads
 * return what was recorded, in the order it was recorded.
 */
public interface AssumptionStore {

  /** Records an assumption. */
  long recordAssumption(AssumptionRecord assumption);

  /** Records one step of an assumption's correction: an invalidation, an expansion, a verification or the outcome. */
  long recordCorrection(CorrectionRecord correction);

  /** Every assumption, oldest first. */
  List<Stored<AssumptionRecord>> assumptions();

  /** Every correction record of the assumption {@code assumptionId}, oldest first. */
  List<Stored<CorrectionRecord>> corrections(String assumptionId);
}
