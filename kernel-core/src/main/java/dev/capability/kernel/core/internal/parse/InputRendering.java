package dev.capability.kernel.core.internal.parse;

/**
 * Renders untrusted text so that every character is visible in a log line or an error message.
 * Printable ASCII stays as it is, a backslash becomes {@code \\}, and every other UTF-16 unit
 * becomes {@code \\uXXXX} (upper-case hex). Because the backslash itself is escaped, the rendering
 * is unambiguous: two inputs never render the same.
 */
public final class InputRendering {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private InputRendering() {}

  /** The escaped rendering of {@code text}. */
  public static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (c >= 0x20 && c <= 0x7E) {
        out.append(c);
      } else {
        appendUnicodeEscape(out, c);
      }
    }
    return out.toString();
  }

  /**
   * Names the character at {@code offset} for a message: {@code '|'} for printable ASCII,
   * {@code U+200B} otherwise (the whole code point when a valid surrogate pair starts there), or
   * {@code end of input}.
   */
  static String describeCharacterAt(String text, int offset) {
    if (offset >= text.length()) {
      return "end of input";
    }
    char c = text.charAt(offset);
    if (c >= 0x20 && c <= 0x7E) {
      return "'" + c + "'";
    }
    return String.format("U+%04X", text.codePointAt(offset));
  }

  private static void appendUnicodeEscape(StringBuilder out, char c) {
    out.append("\\u")
        .append(HEX[(c >> 12) & 0xF])
        .append(HEX[(c >> 8) & 0xF])
        .append(HEX[(c >> 4) & 0xF])
        .append(HEX[c & 0xF]);
  }
}
