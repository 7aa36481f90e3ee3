package dev.capability.cli.internal;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Passes text to a terminal with every character that could drive it shown instead of obeyed.
 *
 * <p>A command an agent proposed controls the bytes it prints; on the operator's terminal an
 * escape sequence can write the clipboard (OSC 52), retitle the window (OSC 0), clear the screen,
 * or move the cursor to overwrite what was printed before. So C0 controls other than newline and
 * tab, and DEL, are written as {@code \xNN}; a carriage return only as part of {@code \r\n}; the
 * C1 controls (U+0080 to U+009F, which some terminals read as {@code ESC [} and its kin) and the
 * bidirectional formatting characters, which reorder what the operator reads, as {@code \}{@code uNNNN};
 * bytes that are not UTF-8 as {@code \xNN}. Everything else passes unchanged, so ordinary text,
 * and JSON (whose writer escapes C0 itself), read the same. Sequences split across writes are
 * held until complete; {@link #finish()} writes what is left.
 */
final class TerminalSafeOutput extends FilterOutputStream {
  private static final int CR = '\r';

  /** The bytes of an unfinished UTF-8 sequence, or a held carriage return. */
  private final byte[] pending = new byte[4];
  private int pendingLength;
  private int expectedLength;
  private boolean heldCarriageReturn;

  TerminalSafeOutput(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    accept(b & 0xff);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    for (int i = offset; i < offset + length; i++) {
      accept(bytes[i] & 0xff);
    }
  }

  /** Writes what is held as shown characters; call at the end of the output. */
  void finish() throws IOException {
    releaseCarriageReturn(false);
    shownPendingBytes();
    out.flush();
  }

  @Override
  public void close() throws IOException {
    finish();
    super.close();
  }

  private void accept(int b) throws IOException {
    if (expectedLength > 0) {
      if ((b & 0xc0) == 0x80) {
        pending[pendingLength++] = (byte) b;
        if (pendingLength == expectedLength) {
          completeSequence();
        }
        return;
      }
      shownPendingBytes();
    }
    releaseCarriageReturn(b == '\n');
    if (b == CR) {
      heldCarriageReturn = true;
    } else if (b < 0x80) {
      if (b == '\n' || b == '\t' || (b >= 0x20 && b < 0x7f)) {
        out.write(b);
      } else {
        shown("\\x%02x", b);
      }
    } else {
      int length = sequenceLength(b);
      if (length == 0) {
        shown("\\x%02x", b);
      } else {
        pending[0] = (byte) b;
        pendingLength = 1;
        expectedLength = length;
      }
    }
  }

  private void releaseCarriageReturn(boolean beforeNewline) throws IOException {
    if (heldCarriageReturn) {
      heldCarriageReturn = false;
      if (beforeNewline) {
        out.write(CR);
      } else {
        shown("\\r");
      }
    }
  }

  /** The length of the UTF-8 sequence {@code lead} starts, or 0 when no valid sequence starts with it. */
  private static int sequenceLength(int lead) {
    if (lead >= 0xc2 && lead <= 0xdf) {
      return 2;
    }
    if (lead >= 0xe0 && lead <= 0xef) {
      return 3;
    }
    if (lead >= 0xf0 && lead <= 0xf4) {
      return 4;
    }
    return 0;
  }

  private void completeSequence() throws IOException {
    String decoded = new String(pending, 0, pendingLength, StandardCharsets.UTF_8);
    // Overlong forms, surrogates and values past U+10FFFF decode to U+FFFD: show those bytes instead.
    int codePoint = decoded.codePointAt(0);
    if (codePoint == 0xfffd && !isEncodedReplacementCharacter()) {
      shownPendingBytes();
      return;
    }
    if (isHiddenControl(codePoint)) {
      shown("\\u%04x", codePoint);
    } else {
      out.write(pending, 0, pendingLength);
    }
    pendingLength = 0;
    expectedLength = 0;
  }

  private boolean isEncodedReplacementCharacter() {
    return pendingLength == 3 && (pending[0] & 0xff) == 0xef && (pending[1] & 0xff) == 0xbf && (pending[2] & 0xff) == 0xbd;
  }

  /** C1 controls, and the characters that reorder or hide text without showing themselves. */
  private static boolean isHiddenControl(int codePoint) {
    return (codePoint >= 0x80 && codePoint <= 0x9f)
        || codePoint == 0x061c
        || codePoint == 0x200e
        || codePoint == 0x200f
        || (codePoint >= 0x202a && codePoint <= 0x202e)
        || (codePoint >= 0x2066 && codePoint <= 0x2069);
  }

  private void shownPendingBytes() throws IOException {
    for (int i = 0; i < pendingLength; i++) {
      shown("\\x%02x", pending[i] & 0xff);
    }
    pendingLength = 0;
    expectedLength = 0;
  }

  private void shown(String format, Object... args) throws IOException {
    out.write(String.format(format, args).getBytes(StandardCharsets.US_ASCII));
  }
}
