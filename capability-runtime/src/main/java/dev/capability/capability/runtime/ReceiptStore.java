package dev.capability.capability.runtime;

/** Where the runtime records every receipt, for runs and for refusals after planning. */
public interface ReceiptStore {

  /**
   * Records {@code receipt}. A store that cannot record throws; the runtime does not hide that.
   */
  void store(ExecutionReceipt receipt);
}
