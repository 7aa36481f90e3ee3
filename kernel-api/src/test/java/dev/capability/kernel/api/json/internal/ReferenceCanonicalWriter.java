package dev.capability.kernel.api.json.internal;

import java.lang.reflect.Array;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedSet;

/**
 * The reference that {@link CanonicalWriter}'s fast paths are tested against: the kernel's first
 * canonical writer, kept as it was (a {@code StringBuilder}, sorted entry copies, an identity set
 * for cycles), except that every non-zero number, small integers included, goes through the exact
 * ECMAScript digit search ({@link EcmaScriptNumbers#formatBySearch}).
 *
 * <p>Walks a tree of plain Java values once and writes its RFC 8785 canonical JSON, refusing anything
 * without exactly one canonical form. Every refusal names the RFC 6901 JSON pointer of the value
 * at fault. One instance serves one call.
 *
 * <p>The walk keeps its own stack of open containers instead of recursing, so that the nesting
 * limit, not the calling thread's stack size, decides how deep a value may go.
 */
final class ReferenceCanonicalWriter {
  /** Pointers longer than this are cut in messages, keeping both ends. */
  private static final int MAX_POINTER_IN_MESSAGE = 200;

  private static final String ACCEPTED_VALUES =
      "null, Boolean, String, "
          + ExactDoubles.ACCEPTED_TYPES
          + ", Map with String keys, List, SortedSet, LinkedHashSet, Deque, and arrays of these"
          + " (char[] excepted)";

  private final int maxDepth;
  private final StringBuilder out = new StringBuilder();
  /** Containers being written, innermost first. */
  private final Deque<OpenContainer> stack = new ArrayDeque<>();
  /** The same containers by identity, to refuse a value that contains itself. */
  private final Set<Object> open = Collections.newSetFromMap(new IdentityHashMap<>());

  private ReferenceCanonicalWriter(int maxDepth) {
    this.maxDepth = maxDepth;
  }

  /**
   * The canonical JSON text of {@code value}.
   *
   * @param maxDepth how many arrays and objects may enclose one another
   * @throws IllegalArgumentException naming the JSON pointer of the first value that has no
   *     canonical form
   */
  static String write(Object value, int maxDepth) {
    if (maxDepth < 1) {
      throw new IllegalArgumentException("maxDepth must be at least 1, was " + maxDepth);
    }
    ReferenceCanonicalWriter writer = new ReferenceCanonicalWriter(maxDepth);
    writer.run(value);
    return writer.out.toString();
  }

  private void run(Object root) {
    Object next = root;
    while (true) {
      begin(next);
      OpenContainer current = stack.peek();
      while (current != null && !current.hasNext()) {
        out.append(current.closing);
        open.remove(current.value);
        stack.pop();
        current = stack.peek();
      }
      if (current == null) {
        return;
      }
      if (current.position > 0) {
        out.append(',');
      }
      next = current.advance();
      if (current instanceof Members members) {
        memberName(members);
      }
    }
  }

  /** Writes a scalar, or opens a container and writes its opening bracket. */
  private void begin(Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String text) {
      string(text);
    } else if (value instanceof Boolean flag) {
      out.append(flag ? "true" : "false");
    } else if (value instanceof Number number) {
      number(number);
    } else if (value instanceof Map<?, ?> map) {
      enter(value);
      push(new Members(map, sortedMembers(map)), '{');
    } else if (isOrdered(value)) {
      enter(value);
      push(new Elements(value, ((Collection<?>) value).iterator()), '[');
    } else if (value instanceof Collection<?>) {
      throw failure(
          "unordered collection "
              + value.getClass().getName()
              + ": its iteration order is not part of its value and can differ between runs, so"
              + " it has no canonical form; pass a List or a SortedSet");
    } else if (value instanceof char[]) {
      throw failure("char[] is text, not an array of numbers; pass a String");
    } else if (value.getClass().isArray()) {
      enter(value);
      push(new Elements(value, javaArrayElements(value)), '[');
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

  private void enter(Object container) {
    if (stack.size() >= maxDepth) {
      throw failure("nesting deeper than " + maxDepth + " arrays and objects");
    }
    if (open.contains(container)) {
      throw failure("value contains itself (a reference cycle) and has no finite JSON form");
    }
  }

  private void push(OpenContainer container, char opening) {
    open.add(container.value);
    stack.push(container);
    out.append(opening);
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
    out.append(value == 0 ? "0" : EcmaScriptNumbers.formatBySearch(value));
  }

  private List<Map.Entry<String, Object>> sortedMembers(Map<?, ?> map) {
    List<Map.Entry<String, Object>> members = new ArrayList<>(map.size());
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      Object key = entry.getKey();
      if (!(key instanceof String name)) {
        throw failure(
            key == null
                ? "member name is null; JSON member names are strings"
                : "member name of type "
                    + key.getClass().getName()
                    + "; JSON member names are strings");
      }
      members.add(new SimpleImmutableEntry<>(name, entry.getValue()));
    }
    // String.compareTo orders by UTF-16 code units, the order RFC 8785 section 3.2.3 requires.
    members.sort(Map.Entry.comparingByKey());
    return members;
  }

  /** Checks and writes the name of the member just advanced to; its pointer is now current. */
  private void memberName(Members members) {
    String name = members.name();
    if (members.repeatsPreviousName()) {
      // Possible with IdentityHashMap, or a map with its own idea of key equality.
      throw failure("duplicate member name; RFC 8785 requires unique names (I-JSON)");
    }
    int lone = JsonStrings.loneSurrogateIndex(name);
    if (lone >= 0) {
      throw failure(loneSurrogate("member name", name, lone));
    }
    JsonStrings.appendQuoted(out, name);
    out.append(':');
  }

  private static Iterator<Object> javaArrayElements(Object array) {
    int length = Array.getLength(array);
    return new Iterator<>() {
      private int index;

      @Override
      public boolean hasNext() {
        return index < length;
      }

      @Override
      public Object next() {
        if (index >= length) {
          throw new NoSuchElementException();
        }
        return Array.get(array, index++);
      }
    };
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
    for (Iterator<OpenContainer> outward = stack.descendingIterator(); outward.hasNext(); ) {
      Object token = outward.next().token;
      if (token != null) {
        // RFC 6901 section 3: '~' becomes "~0" and '/' becomes "~1".
        pointer.append('/').append(token.toString().replace("~", "~0").replace("/", "~1"));
      }
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

  /** An array or object being written, and where in it the walk is. */
  private abstract static class OpenContainer {
    final Object value;
    final char closing;
    /** How many children have been advanced to. */
    int position;
    /** The pointer token of the current child: its index or member name; null before the first. */
    Object token;

    OpenContainer(Object value, char closing) {
      this.value = value;
      this.closing = closing;
    }

    abstract boolean hasNext();

    /** Moves to the next child, updating {@link #token}, and returns it. */
    abstract Object advance();
  }

  private static final class Elements extends OpenContainer {
    private final Iterator<?> iterator;

    Elements(Object value, Iterator<?> iterator) {
      super(value, ']');
      this.iterator = iterator;
    }

    @Override
    boolean hasNext() {
      return iterator.hasNext();
    }

    @Override
    Object advance() {
      token = position++;
      return iterator.next();
    }
  }

  private static final class Members extends OpenContainer {
    private final List<Map.Entry<String, Object>> sorted;

    Members(Object value, List<Map.Entry<String, Object>> sorted) {
      super(value, '}');
      this.sorted = sorted;
    }

    @Override
    boolean hasNext() {
      return position < sorted.size();
    }

    @Override
    Object advance() {
      Map.Entry<String, Object> member = sorted.get(position++);
      token = member.getKey();
      return member.getValue();
    }

    String name() {
      return (String) token;
    }

    boolean repeatsPreviousName() {
      return position > 1 && sorted.get(position - 2).getKey().equals(token);
    }
  }
}
