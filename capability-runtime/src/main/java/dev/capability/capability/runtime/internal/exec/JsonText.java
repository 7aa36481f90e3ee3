package dev.capability.capability.runtime.internal.exec;

/**
 * Writes JSON string literals (RFC 8259): the capability host's only JSON need, met without a JSON
 * library so the child JVM loads none. Escapes the quote, the backslash and every control
 * character; lone surrogates are written as escapes so that the text stays valid UTF-8.
 */
final class JsonText {
  private JsonText() {}

  static void appendString(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          boolean loneSurrogate =
              Character.isSurrogate(c)
                  && !(Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1)))
                  && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1)));
          if (c < 0x20 || loneSurrogate) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }

  static void appendStringOrNull(StringBuilder json, java.util.Optional<String> text) {
    if (text.isPresent()) {
      appendString(json, text.get());
    } else {
      json.append("null");
    }
  }
}
