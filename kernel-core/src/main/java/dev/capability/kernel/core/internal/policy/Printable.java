package dev.capability.kernel.core.internal.policy;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Renders untrusted strings for messages so that control, invisible and non-ASCII characters are
 * visible as {@code \\uXXXX} and a reader sees exactly which argument was meant.
 */
final class Printable {
  private Printable() {}

  /** {@code text} in double quotes, with every character outside printable ASCII escaped. */
  static String quote(String text) {
    return '"' + escape(text) + '"';
  }

  /** {@code text} with quotes, backslashes and every character outside printable ASCII escaped. */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
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
    return out.toString();
  }

  /** {@code argv} as a bracketed list of quoted strings. */
  static String argv(List<String> argv) {
    return argv.stream().map(Printable::quote).collect(Collectors.joining(", ", "[", "]"));
  }
}
