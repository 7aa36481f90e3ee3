package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.nio.file.Path;
import java.util.Base64;

/** PEM blocks (RFC 7468): base64 in 64-character lines between BEGIN and END labels. */
final class Pem {
  private Pem() {}

  static String encode(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + label + "-----\n";
  }

  /** The bytes of the one block labelled {@code label} in {@code text}. */
  static byte[] decode(String text, String label, Path file) {
    String begin = "-----BEGIN " + label + "-----";
    String end = "-----END " + label + "-----";
    int from = text.indexOf(begin);
    int to = from < 0 ? -1 : text.indexOf(end, from);
    if (from < 0 || to < 0 || text.indexOf(begin, from + 1) >= 0) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, file + " must hold exactly one PEM block '" + label + "'");
    }
    try {
      return Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
    } catch (IllegalArgumentException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "the '" + label + "' block of " + file + " is not base64", e);
    }
  }
}
