package dev.capability.kernel.api.store;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionResult;
import java.util.Objects;

/**
 * The command ran (or was denied), but its evidence could not be recorded. The outcome is not
 * lost: {@link #result()} holds it, attestation included, so the host can report it or record
 * it elsewhere.
 */
public final class EvidenceNotRecordedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public static final String CODE = "EVIDENCE_NOT_RECORDED";

  private final transient ExecutionResult result;

  public EvidenceNotRecordedException(ExecutionResult result, RuntimeException cause) {
    super(CODE, "the command's outcome (" + result.status() + ") could not be recorded in the evidence store: "
        + cause.getMessage() + "; the result is attached to this exception", cause);
    this.result = Objects.requireNonNull(result, "result");
  }

  /** The outcome that was not recorded. */
  public ExecutionResult result() {
    return result;
  }
}
