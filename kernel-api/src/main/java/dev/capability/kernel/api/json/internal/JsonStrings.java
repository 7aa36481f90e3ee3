package dev.capability.kernel.api.json.internal;

/**
 * JSON string literals exactly as ECMAScript {@code JSON.stringify} writes them, which RFC 8785
 * section 3.2.2.2 prescribes: only {@code "}, {@code \} and the controls below U+0020 are escaped,
 * and everything else, U+2028, U+2029, U+007F and all non-ASCII included, stays literal.
 */
public final class JsonStrings {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private JsonStrings() {}

  /**
   * Index of the first UTF-16 code unit of {@code text} that is a surrogate without its partner,
   * or -1 if the text is well-formed Unicode. RFC 8785 requires strings expressible as Unicode, and
   * a lone surrogate has no UTF-8 form, so it would otherwise be replaced and collide with other
   * strings.
   */
  public static int loneSurrogateIndex(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      } else if (Character.isLowSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  /** Appends {@code text} as a quoted, escaped JSON string; the text must be well-formed. */
  public static void appendQuoted(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20) {
            appendUnicodeEscape(out, c);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * {@code text} quoted for an error message: JSON escapes plus {@code \}{@code uXXXX} for every
   * character outside printable ASCII, so that hostile keys cannot forge log lines, reorder text
   * with bidirectional controls, or hide behind look-alike letters.
   */
  public static String quotedForMessage(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        appendUnicodeEscape(out, c);
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static void appendUnicodeEscape(StringBuilder out, char c) {
    out.append("\\u")
        .append(HEX[(c >> 12) & 0xf])
        .append(HEX[(c >> 8) & 0xf])
        .append(HEX[(c >> 4) & 0xf])
        .append(HEX[c & 0xf]);
  }
}
