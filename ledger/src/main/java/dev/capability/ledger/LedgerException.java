package dev.capability.ledger;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/**
 * The ledger could not do what was asked: the file is not a ledger or is damaged, the disk
 * refused a write, a key or checkpoint file is unusable, or a record is invalid. {@link #code()}
 * names which; the message names the file.
 *
 * <p>The codes are the constants of {@link LedgerCodes}.
 */
public final class LedgerException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public LedgerException(String code, String message) {
    super(code, message);
  }

  public LedgerException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
