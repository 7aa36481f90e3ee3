package dev.capability.ledger;

import dev.capability.kernel.api.CapabilityException;

/**
 * The ledger could not do what was asked: the file is not a ledger or is damaged, the disk
 * refused a write, a key or checkpoint file is unusable, or a record is invalid. {@link #code()}
 * names which; the message names the file.
 *
 * <p>Codes: {@code LEDGER_NOT_FOUND}, {@code LEDGER_NOT_SQLITE}, {@code LEDGER_FOREIGN_DATABASE},
 * {@code LEDGER_SCHEMA_TOO_NEW}, {@code LEDGER_SCHEMA_OLD}, {@code LEDGER_CORRUPT}, {@code LEDGER_READ_ONLY}, {@code
 * LEDGER_STORAGE_FULL}, {@code LEDGER_IO_ERROR}, {@code LEDGER_BUSY}, {@code LEDGER_PATH_UNSUPPORTED},
 * {@code LEDGER_KEY_MISSING}, {@code LEDGER_KEY_INVALID}, {@code LEDGER_KEY_MISMATCH}, {@code
 * LEDGER_CHECKPOINT_IO}, {@code LEDGER_RECORD_INVALID}, {@code LEDGER_NOT_INTACT}, {@code
 * LEDGER_CLOSED}.
 */
public final class LedgerException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public LedgerException(String code, String message) {
    super(code, message);
  }

  public LedgerException(String code, String message, Throwable cause) {
    super(code, message, cause);
  }
}
