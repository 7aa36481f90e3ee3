package dev.capability.kernel.api.store;

/**
 * Where the kernel hands every decision it makes without running anything ({@code check}), as it
 * makes it. Implementations store what they are given durably before returning; a store that fails
 * throws, and the host sees that exception.
 */
@FunctionalInterface
public interface DecisionStore {

  /** Records one decision. */
  void record(DecisionRecord decision);
}
