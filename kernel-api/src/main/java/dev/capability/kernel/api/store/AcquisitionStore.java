package dev.capability.kernel.api.store;

/**
 * Where a host records the packages it fetched and verified, accepted or refused. Implementations
 * store what they are given durably before returning; a store that fails throws.
 */
@FunctionalInterface
public interface AcquisitionStore {

  /** Records one acquisition. */
  void record(AcquisitionRecord acquisition);
}
