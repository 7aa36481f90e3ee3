package dev.capability.capability.runtime;

import dev.capability.kernel.api.CapabilityException;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The runtime's evidence store failed during a run. Before a launch, nothing was launched; when
 * only the receipt could not be recorded, the run happened and {@link #receipt()} holds its
 * receipt, so the host can report it or record it elsewhere.
 */
public final class RunNotRecordedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  private final transient @Nullable ExecutionReceipt receipt;

  RunNotRecordedException(String what, @Nullable ExecutionReceipt receipt, RuntimeException cause) {
    super(CapabilityCodes.EVIDENCE_NOT_RECORDED, "the evidence store could not record the run's " + what + ": " + cause.getMessage()
        + (receipt == null ? "; the run went no further (nothing is launched after a failed record)" : "; the run ended " + receipt.outcome() + " and its receipt is attached"), cause);
    this.receipt = receipt;
  }

  /** The receipt of the run, when the run ended and only its receipt was not recorded. */
  public Optional<ExecutionReceipt> receipt() {
    return Optional.ofNullable(receipt);
  }

  static RunNotRecordedException of(String what, @Nullable ExecutionReceipt receipt, RuntimeException cause) {
    return new RunNotRecordedException(what, receipt, Objects.requireNonNull(cause, "cause"));
  }
}
