package dev.capability.kernel.core.internal.authority;

/**
 * Renders untrusted strings for messages so that control, invisible and non-ASCII characters are
 * visible as {@code \\uXXXX}: a reader sees exactly which path or pattern was meant.
 */
final class Printable {
  private Printable() {}

  /** {@code text} in double quotes, with quotes, backslashes and everything outside printable ASCII escaped. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c >= 0x20 && c < 0x7f) {
        out.append(c);
      } else {
        out.append(String.format("\\u%04X", (int) c));
      }
    }
    return out.append('"').toString();
  }
}
