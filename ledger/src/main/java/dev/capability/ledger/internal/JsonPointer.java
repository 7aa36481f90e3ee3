package dev.capability.ledger.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An RFC 6901 JSON pointer, for naming the members a redaction replaces. */
public final class JsonPointer {
  private final String text;
  private final List<String> tokens;

  private JsonPointer(String text, List<String> tokens) {
    this.text = text;
    this.tokens = List.copyOf(tokens);
  }

  /** Parses {@code text}; refuses the empty pointer (the whole record) and malformed escapes. */
  public static JsonPointer parse(String text) {
    if (text.isEmpty() || text.charAt(0) != '/') {
      throw new IllegalArgumentException("a JSON pointer to redact must start with '/' and name a member, was '" + text + "'");
    }
    List<String> tokens = new ArrayList<>();
    for (String raw : text.substring(1).split("/", -1)) {
      StringBuilder token = new StringBuilder();
      for (int i = 0; i < raw.length(); i++) {
        char ch = raw.charAt(i);
        if (ch != '~') {
          token.append(ch);
        } else if (i + 1 < raw.length() && (raw.charAt(i + 1) == '0' || raw.charAt(i + 1) == '1')) {
          token.append(raw.charAt(++i) == '0' ? '~' : '/');
        } else {
          throw new IllegalArgumentException("'~' must be followed by 0 or 1 in the JSON pointer '" + text + "'");
        }
      }
      tokens.add(token.toString());
    }
    return new JsonPointer(text, tokens);
  }

  /** Replaces the value this pointer names in {@code root} with {@code replacement}; absent values are left absent. */
  public void replace(Map<String, Object> root, Object replacement) {
    Object current = root;
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      boolean last = i == tokens.size() - 1;
      if (current instanceof Map<?, ?> map) {
        if (!map.containsKey(token)) {
          return;
        }
        if (last) {
          @SuppressWarnings("unchecked")
          Map<String, Object> writable = (Map<String, Object>) map;
          writable.put(token, replacement);
          return;
        }
        current = map.get(token);
      } else if (current instanceof List<?> list) {
        int index = index(token);
        if (index < 0 || index >= list.size()) {
          return;
        }
        if (last) {
          @SuppressWarnings("unchecked")
          List<Object> writable = (List<Object>) list;
          writable.set(index, replacement);
          return;
        }
        current = list.get(index);
      } else {
        return;
      }
    }
  }

  private static int index(String token) {
    if (token.isEmpty() || token.length() > 9 || !token.chars().allMatch(Character::isDigit) || (token.length() > 1 && token.charAt(0) == '0')) {
      return -1;
    }
    return Integer.parseInt(token);
  }

  @Override
  public String toString() {
    return text;
  }
}
