package dev.capability.kernel.api.store;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One launch by the kernel on behalf of a capability run, recorded by its attestation alone: the
 * same record {@link EvidenceStore#record} makes of a command's execution.
 *
 * @param attestation the attestation in its JSON form ({@link AttestationJson#toMap}), as plain
 *     maps, lists, strings, numbers and booleans
 */
public record ExecutionRecord(Map<String, @Nullable Object> attestation) {
  public ExecutionRecord {
    attestation = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(attestation, "attestation")));
    if (!(attestation.get("status") instanceof String)) {
      throw new IllegalArgumentException("an attestation has a string member 'status'");
    }
  }

  /** The record of {@code attestation}. */
  public static ExecutionRecord of(Attestation attestation) {
    return new ExecutionRecord(AttestationJson.toMap(Objects.requireNonNull(attestation, "attestation")));
  }
}
