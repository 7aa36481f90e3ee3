package dev.capability.capability.runtime;

/**
 * Receives every receipt as it is issued, for runs and for refusals after planning: the shorthand
 * for a {@link CapabilityEventListener} that hears only {@link
 * CapabilityEventListener#receiptIssued} ({@link CapabilityRuntime.Builder#receipts}). For the
 * whole run, plan and launches included, use an event listener or an evidence store.
 */
public interface ReceiptStore {

  /**
   * Records {@code receipt}. A store that cannot record throws; the runtime does not hide that.
   */
  void store(ExecutionReceipt receipt);
}
