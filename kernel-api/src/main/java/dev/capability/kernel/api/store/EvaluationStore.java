package dev.capability.kernel.api.store;

/**
 * Where a host records the evaluations it ran: candidate commits compared by a fixed set of
 * commands, each run through the kernel. Implementations store what they are given durably
 * before returning; a store that fails throws, and the evaluation reports the failure.
 */
@FunctionalInterface
public interface EvaluationStore {

  /**
   * Records one evaluation's report.
   *
   * @return the record's sequence number in the store, from 1, increasing
   */
  long recordEvaluation(EvaluationRecord evaluation);
}
