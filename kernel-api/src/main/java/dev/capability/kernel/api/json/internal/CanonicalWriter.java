package dev.capability.kernel.api.json.internal;

import java.lang.reflect.Array;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * Walks a tree of plain Java values once and writes its RFC 8785 canonical JSON, refusing anything
 * without exactly one canonical form. Every refusal names the RFC 6901 JSON pointer of the value
 * at fault. One instance serves one call.
 */
public final class CanonicalWriter {
  /** Pointers longer than this are cut in messages, keeping both ends. */
  private static final int MAX_POINTER_IN_MESSAGE = 200;

  private static final String ACCEPTED_VALUES =
      "null, Boolean, String, "
          + ExactDoubles.ACCEPTED_TYPES
          + ", Map with String keys, List, SortedSet, LinkedHashSet, Deque, and arrays of these"
          + " (char[] excepted)";

  private final int maxDepth;
  private final StringBuilder out = new StringBuilder();
  /** Member names (String) and array indexes (Integer) from the root to the current value. */
  private final List<Object> path = new ArrayList<>();
  /** Containers being written, by identity, to refuse a value that contains itself. */
  private final Set<Object> open = Collections.newSetFromMap(new IdentityHashMap<>());

  private CanonicalWriter(int maxDepth) {
    this.maxDepth = maxDepth;
  }

  /**
   * The canonical JSON text of {@code value}.
   *
   * @param maxDepth how many arrays and objects may enclose one another
   * @throws IllegalArgumentException naming the JSON pointer of the first value that has no
   *     canonical form
   */
  public static String write(Object value, int maxDepth) {
    if (maxDepth < 1) {
      throw new IllegalArgumentException("maxDepth must be at least 1, was " + maxDepth);
    }
    CanonicalWriter writer = new CanonicalWriter(maxDepth);
    writer.value(value, 0);
    return writer.out.toString();
  }

  private void value(Object value, int depth) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String text) {
      string(text);
    } else if (value instanceof Boolean flag) {
      out.append(flag ? "true" : "false");
    } else if (value instanceof Number number) {
      number(number);
    } else if (value instanceof Map<?, ?> map) {
      enter(map, depth);
      object(map, depth + 1);
      open.remove(map);
    } else if (isOrdered(value)) {
      enter(value, depth);
      array((Collection<?>) value, depth + 1);
      open.remove(value);
    } else if (value instanceof Collection<?>) {
      throw failure(
          "unordered collection "
              + value.getClass().getName()
              + ": its iteration order is not part of its value and can differ between runs, so"
              + " it has no canonical form; pass a List or a SortedSet");
    } else if (value instanceof char[]) {
      throw failure("char[] is text, not an array of numbers; pass a String");
    } else if (value.getClass().isArray()) {
      enter(value, depth);
      javaArray(value, depth + 1);
      open.remove(value);
    } else {
      throw failure(
          "unsupported type " + value.getClass().getName() + "; accepted: " + ACCEPTED_VALUES);
    }
  }

  private static boolean isOrdered(Object value) {
    return value instanceof List<?>
        || value instanceof SortedSet<?>
        || value instanceof LinkedHashSet<?>
        || value instanceof Deque<?>;
  }

  private void enter(Object container, int depth) {
    if (depth >= maxDepth) {
      throw failure("nesting deeper than " + maxDepth + " arrays and objects");
    }
    if (!open.add(container)) {
      throw failure("value contains itself (a reference cycle) and has no finite JSON form");
    }
  }

  private void string(String text) {
    int lone = JsonStrings.loneSurrogateIndex(text);
    if (lone >= 0) {
      throw failure(loneSurrogate("string", text, lone));
    }
    JsonStrings.appendQuoted(out, text);
  }

  private void number(Number number) {
    double value;
    try {
      value = ExactDoubles.of(number);
    } catch (IllegalArgumentException e) {
      throw failure(e.getMessage());
    }
    out.append(EcmaScriptNumbers.format(value));
  }

  private void object(Map<?, ?> map, int depth) {
    List<Map.Entry<String, Object>> members = new ArrayList<>(map.size());
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      Object key = entry.getKey();
      if (!(key instanceof String name)) {
        throw failure(
            key == null
                ? "member name is null; JSON member names are strings"
                : "member name of type " + key.getClass().getName()
                    + "; JSON member names are strings");
      }
      members.add(new SimpleImmutableEntry<>(name, entry.getValue()));
    }
    // String.compareTo orders by UTF-16 code units, the order RFC 8785 section 3.2.3 requires.
    members.sort(Map.Entry.comparingByKey());
    out.append('{');
    for (int i = 0; i < members.size(); i++) {
      String name = members.get(i).getKey();
      path.add(name);
      if (i > 0 && name.equals(members.get(i - 1).getKey())) {
        // Possible with IdentityHashMap or a map with its own key equality.
        throw failure("duplicate member name; RFC 8785 requires unique names (I-JSON)");
      }
      int lone = JsonStrings.loneSurrogateIndex(name);
      if (lone >= 0) {
        throw failure(loneSurrogate("member name", name, lone));
      }
      if (i > 0) {
        out.append(',');
      }
      JsonStrings.appendQuoted(out, name);
      out.append(':');
      value(members.get(i).getValue(), depth);
      path.remove(path.size() - 1);
    }
    out.append('}');
  }

  private void array(Collection<?> elements, int depth) {
    out.append('[');
    int index = 0;
    for (Object element : elements) {
      element(index++, element, depth);
    }
    out.append(']');
  }

  private void javaArray(Object array, int depth) {
    out.append('[');
    int length = Array.getLength(array);
    for (int index = 0; index < length; index++) {
      element(index, Array.get(array, index), depth);
    }
    out.append(']');
  }

  private void element(int index, Object element, int depth) {
    if (index > 0) {
      out.append(',');
    }
    path.add(index);
    value(element, depth);
    path.remove(path.size() - 1);
  }

  private static String loneSurrogate(String what, String text, int index) {
    return String.format(
        "%s has a lone surrogate U+%04X at index %d; RFC 8785 requires well-formed Unicode",
        what, (int) text.charAt(index), index);
  }

  private IllegalArgumentException failure(String problem) {
    return new IllegalArgumentException(
        "not canonicalizable JSON: " + problem + ", at JSON pointer " + pointerForMessage());
  }

  private String pointerForMessage() {
    StringBuilder pointer = new StringBuilder();
    for (Object token : path) {
      // RFC 6901 section 3: '~' becomes "~0" and '/' becomes "~1".
      pointer.append('/').append(token.toString().replace("~", "~0").replace("/", "~1"));
    }
    if (pointer.length() <= MAX_POINTER_IN_MESSAGE) {
      return JsonStrings.quotedForMessage(pointer.toString());
    }
    int half = MAX_POINTER_IN_MESSAGE / 2;
    return JsonStrings.quotedForMessage(pointer.substring(0, half))
        + " ... "
        + JsonStrings.quotedForMessage(pointer.substring(pointer.length() - half))
        + " ("
        + pointer.length()
        + " characters)";
  }
}
