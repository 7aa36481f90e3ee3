package dev.capability.kernel.api.store;

import dev.capability.kernel.api.ExecutionResult;

/**
 * Where the kernel hands every execution and every denial, with its attestation, once the
 * pipeline has finished. Implementations must store what they are given durably before
 * returning, and must never store what the attestation does not hold (environment values,
 * secrets).
 *
 * <p>A store that fails throws; the kernel reports that to the host as an
 * {@link EvidenceNotRecordedException}, after the command has run, with the result attached.
 */
public interface EvidenceStore extends AutoCloseable {

  /** Records one execution or denial. */
  void record(ExecutionResult result);

  @Override
  default void close() {}
}
