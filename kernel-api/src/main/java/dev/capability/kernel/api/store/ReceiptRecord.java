package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What came of one recorded plan: the runtime's receipt, linked to the plan and to the launches
 * it contains.
 *
 * @param receiptId this record's id, unique in the store
 * @param planId the {@link PlanRecord#planId()} of the plan it reports on
 * @param planFingerprint that plan's fingerprint
 * @param status how the run ended ({@code SUCCEEDED}, {@code FAILED}, {@code REFUSED})
 * @param executionSequences the store's sequence numbers of the {@link ExecutionRecord}s of this
 *     run, in launch order; empty when nothing was launched through the kernel
 * @param receipt the receipt's JSON form, as plain maps, lists, strings, numbers and booleans
 */
public record ReceiptRecord(
    String receiptId, String planId, String planFingerprint, String status, List<Long> executionSequences, Map<String, @Nullable Object> receipt) {
  public ReceiptRecord {
    Records.requireText(receiptId, "receiptId");
    Records.requireText(planId, "planId");
    Records.requireText(planFingerprint, "planFingerprint");
    Records.requireText(status, "status");
    executionSequences = List.copyOf(Objects.requireNonNull(executionSequences, "executionSequences"));
    for (Long sequence : executionSequences) {
      if (sequence < 1) {
        throw new IllegalArgumentException("sequence numbers start at 1, was " + sequence);
      }
    }
    receipt = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(receipt, "receipt")));
  }
}
