package dev.capability.kernel.api.json.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads RFC 8259 JSON text into plain values: {@code Map<String, Object>} (in document order),
 * {@code List<Object>}, {@code String}, {@code BigDecimal} (every number, exactly as written),
 * {@code Boolean} and {@code null}. Strict: no comments, no duplicate member names, no trailing
 * content, nesting bounded. The JDK has no JSON reader and this module depends on nothing else.
 */
public final class StrictJsonParser {
  private final String text;
  private final int maxDepth;
  private int at;

  private StrictJsonParser(String text, int maxDepth) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  /**
   * Parses {@code text}, one JSON value with optional whitespace around it.
   *
   * @throws IllegalArgumentException saying what is wrong and at which character offset
   */
  public static Object parse(String text, int maxDepth) {
    StrictJsonParser parser = new StrictJsonParser(text, maxDepth);
    parser.skipWhitespace();
    Object value = parser.value(0);
    parser.skipWhitespace();
    if (parser.at != text.length()) {
      throw parser.failure("content after the JSON value");
    }
    return value;
  }

  private Object value(int depth) {
    if (at >= text.length()) {
      throw failure("the text ends where a value was expected");
    }
    char c = text.charAt(at);
    return switch (c) {
      case '{' -> object(depth + 1);
      case '[' -> array(depth + 1);
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw failure("unexpected character " + JsonStrings.quotedForMessage(String.valueOf(c)));
      }
    };
  }

  private Map<String, Object> object(int depth) {
    requireDepth(depth);
    at++;
    Map<String, Object> members = new LinkedHashMap<>();
    skipWhitespace();
    if (peek('}')) {
      at++;
      return Collections.unmodifiableMap(members);
    }
    while (true) {
      skipWhitespace();
      if (!peek('"')) {
        throw failure("a member name was expected");
      }
      int nameAt = at;
      String name = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      if (members.containsKey(name)) {
        at = nameAt;
        throw failure("duplicate member name " + JsonStrings.quotedForMessage(name));
      }
      members.put(name, value(depth));
      skipWhitespace();
      if (peek(',')) {
        at++;
      } else {
        expect('}');
        return Collections.unmodifiableMap(members);
      }
    }
  }

  private List<Object> array(int depth) {
    requireDepth(depth);
    at++;
    List<Object> elements = new ArrayList<>();
    skipWhitespace();
    if (peek(']')) {
      at++;
      return Collections.unmodifiableList(elements);
    }
    while (true) {
      skipWhitespace();
      elements.add(value(depth));
      skipWhitespace();
      if (peek(',')) {
        at++;
      } else {
        expect(']');
        return Collections.unmodifiableList(elements);
      }
    }
  }

  private String string() {
    at++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (at >= text.length()) {
        throw failure("the text ends inside a string");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        at--;
        throw failure("a control character must be escaped in a string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (at >= text.length()) {
        throw failure("the text ends inside an escape");
      }
      char escaped = text.charAt(at++);
      switch (escaped) {
        case '"', '\\', '/' -> out.append(escaped);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> out.append(unicodeEscape());
        default -> {
          at--;
          throw failure("unknown escape \\" + JsonStrings.quotedForMessage(String.valueOf(escaped)));
        }
      }
    }
  }

  private char unicodeEscape() {
    if (at + 4 > text.length()) {
      throw failure("the text ends inside a \\u escape");
    }
    int code = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(at + i), 16);
      if (digit < 0) {
        throw failure("a \\u escape needs four hex digits");
      }
      code = code * 16 + digit;
    }
    at += 4;
    return (char) code;
  }

  private BigDecimal number() {
    int start = at;
    if (peek('-')) {
      at++;
    }
    if (peek('0')) {
      at++;
    } else {
      digits("a digit");
    }
    if (peek('.')) {
      at++;
      digits("a digit after the decimal point");
    }
    if (peek('e') || peek('E')) {
      at++;
      if (peek('+') || peek('-')) {
        at++;
      }
      digits("a digit in the exponent");
    }
    String number = text.substring(start, at);
    try {
      return new BigDecimal(number);
    } catch (NumberFormatException e) {
      // Only an exponent beyond what BigDecimal holds gets here: the syntax was checked above.
      at = start;
      throw failure("the number " + number + " is out of range");
    }
  }

  private void digits(String what) {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
      at++;
    }
    if (at == start) {
      throw failure(what + " was expected");
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw failure("unexpected text; " + word + " was expected");
    }
    at += word.length();
    return value;
  }

  private void requireDepth(int depth) {
    if (depth > maxDepth) {
      throw failure("arrays and objects nest deeper than " + maxDepth + " levels");
    }
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw failure("'" + c + "' was expected");
    }
    at++;
  }

  private void skipWhitespace() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      at++;
    }
  }

  private IllegalArgumentException failure(String problem) {
    return new IllegalArgumentException("not JSON: " + problem + ", at character " + at);
  }
}
