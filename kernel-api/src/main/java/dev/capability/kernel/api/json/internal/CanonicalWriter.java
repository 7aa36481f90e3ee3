package dev.capability.kernel.api.json.internal;

import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * Walks a tree of plain Java values once and writes its RFC 8785 canonical JSON as UTF-8 bytes,
 * refusing anything without exactly one canonical form. Every refusal names the RFC 6901 JSON
 * pointer of the value at fault. One instance serves one call.
 *
 * <p>The walk keeps its own stack of open containers instead of recursing, so that the nesting
 * limit, not the calling thread's stack size, decides how deep a value may go. The text is encoded
 * as it is written, straight into one growing byte array: the ledger canonicalizes every record,
 * and an intermediate {@code String} plus its re-encoding cost as much as the walk itself.
 */
public final class CanonicalWriter {
  /** Pointers longer than this are cut in messages, keeping both ends. */
  private static final int MAX_POINTER_IN_MESSAGE = 200;

  /** Most canonicalized values (attestations, plans, policies) fit without growing. */
  private static final int INITIAL_CAPACITY = 2048;

  /**
   * 2^53: every long of smaller magnitude is exactly a double, which ECMAScript prints as the same
   * digits; wider ones take the exact path (and are refused unless a double holds them).
   */
  private static final long EXACT_LONG_LIMIT = 1L << 53;

  /** Below this many members, insertion sort beats merging. */
  private static final int INSERTION_SORT_LIMIT = 16;

  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] HEX = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
  };

  /**
   * For each ASCII character, the character after the backslash of its short escape, 'u' for
   * the controls without one, or 0 when it is written as itself.
   */
  private static final byte[] ESCAPES = new byte[128];

  static {
    for (int c = 0; c < 0x20; c++) {
      ESCAPES[c] = 'u';
    }
    ESCAPES['"'] = '"';
    ESCAPES['\\'] = '\\';
    ESCAPES['\b'] = 'b';
    ESCAPES['\t'] = 't';
    ESCAPES['\n'] = 'n';
    ESCAPES['\f'] = 'f';
    ESCAPES['\r'] = 'r';
  }

  private static final String ACCEPTED_VALUES =
      "null, Boolean, String, "
          + ExactDoubles.ACCEPTED_TYPES
          + ", Map with String keys, List, SortedSet, LinkedHashSet, Deque, and arrays of these"
          + " (char[] excepted)";

  private final int maxDepth;
  private byte[] out = new byte[INITIAL_CAPACITY];
  private int size;
  /** Containers being written, outermost first; {@code depth} of them are open. */
  private OpenContainer[] stack = new OpenContainer[8];
  private int depth;

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
    CanonicalWriter writer = run(value, maxDepth);
    return new String(writer.out, 0, writer.size, StandardCharsets.UTF_8);
  }

  /**
   * The UTF-8 bytes of {@link #write}: exact, since lone surrogates, the only text UTF-8 cannot
   * encode, are refused.
   *
   * @param maxDepth how many arrays and objects may enclose one another
   * @throws IllegalArgumentException as {@link #write}
   */
  public static byte[] bytes(Object value, int maxDepth) {
    CanonicalWriter writer = run(value, maxDepth);
    return Arrays.copyOf(writer.out, writer.size);
  }

  private static CanonicalWriter run(Object value, int maxDepth) {
    if (maxDepth < 1) {
      throw new IllegalArgumentException("maxDepth must be at least 1, was " + maxDepth);
    }
    CanonicalWriter writer = new CanonicalWriter(maxDepth);
    writer.walk(value);
    return writer;
  }

  private void walk(Object root) {
    Object next = root;
    while (true) {
      begin(next);
      OpenContainer current = innermost();
      while (current != null && !current.hasNext()) {
        writeByte(current.closing);
        stack[--depth] = null;
        current = innermost();
      }
      if (current == null) {
        return;
      }
      if (current.position > 0) {
        writeByte(',');
      }
      next = current.advance();
      if (current instanceof Members members) {
        memberName(members);
      }
    }
  }

  private OpenContainer innermost() {
    return depth == 0 ? null : stack[depth - 1];
  }

  /** Writes a scalar, or opens a container and writes its opening bracket. */
  private void begin(Object value) {
    if (value == null) {
      writeBytes(NULL);
    } else if (value instanceof String text) {
      string(text, "string");
    } else if (value instanceof Boolean flag) {
      writeBytes(flag ? TRUE : FALSE);
    } else if (value instanceof Number number) {
      number(number);
    } else if (value instanceof Map<?, ?> map) {
      enter(value);
      push(members(map));
    } else if (isOrdered(value)) {
      enter(value);
      push(new IteratedElements(value, ((Collection<?>) value).iterator()));
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
      push(new ArrayElements(value));
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
    if (depth >= maxDepth) {
      throw failure("nesting deeper than " + maxDepth + " arrays and objects");
    }
    // The open containers are few in practice; a scan is cheaper than an identity set.
    for (int i = 0; i < depth; i++) {
      if (stack[i].value == container) {
        throw failure("value contains itself (a reference cycle) and has no finite JSON form");
      }
    }
  }

  private void push(OpenContainer container) {
    if (depth == stack.length) {
      stack = Arrays.copyOf(stack, depth * 2);
    }
    stack[depth++] = container;
    writeByte(container.opening);
  }

  // ---- Numbers -------------------------------------------------------------------------------

  private void number(Number number) {
    Class<?> type = number.getClass();
    if (type == Integer.class || type == Short.class || type == Byte.class) {
      writeLong(number.intValue());
      return;
    }
    if (type == Long.class) {
      long value = number.longValue();
      if (-EXACT_LONG_LIMIT < value && value < EXACT_LONG_LIMIT) {
        writeLong(value);
        return;
      }
    }
    double value;
    try {
      value = ExactDoubles.of(number);
    } catch (IllegalArgumentException e) {
      throw failure(e.getMessage());
    }
    if (EcmaScriptNumbers.isSmallInteger(value)) {
      // Also -0.0, whose long is 0, as ECMAScript prints it.
      writeLong((long) value);
    } else {
      writeAscii(EcmaScriptNumbers.format(value));
    }
  }

  /**
   * Writes the decimal digits of {@code value}, as {@link Long#toString(long)} and, below 2^53 in
   * magnitude, ECMAScript spell them.
   */
  private void writeLong(long value) {
    ensure(20);
    long magnitude = value;
    if (value < 0) {
      out[size++] = '-';
      magnitude = -value;
    }
    int digits = decimalLength(magnitude);
    int end = size + digits;
    for (int at = end - 1; at >= size; at--) {
      out[at] = (byte) ('0' + (int) (magnitude % 10));
      magnitude /= 10;
    }
    size = end;
  }

  private static int decimalLength(long positive) {
    int digits = 1;
    for (long limit = 10; digits < 19 && positive >= limit; limit *= 10) {
      digits++;
    }
    return digits;
  }

  // ---- Strings -------------------------------------------------------------------------------

  /**
   * Writes {@code text} quoted and escaped as ECMAScript {@code JSON.stringify} does, encoded as
   * UTF-8; refuses a lone surrogate, naming it as part of {@code what}.
   */
  private void string(String text, String what) {
    int length = text.length();
    ensure(length + 2L);
    byte[] bytes = out;
    int at = size;
    bytes[at++] = '"';
    int i = 0;
    // Plain printable ASCII, most of every attestation, is copied one byte per character.
    for (; i < length; i++) {
      char c = text.charAt(i);
      if (c >= 0x80 || ESCAPES[c] != 0) {
        break;
      }
      bytes[at++] = (byte) c;
    }
    size = at;
    if (i < length) {
      stringRest(text, i, what);
    }
    writeByte('"');
  }

  private void stringRest(String text, int from, String what) {
    int length = text.length();
    for (int i = from; i < length; i++) {
      char c = text.charAt(i);
      ensure(6);
      if (c < 0x80) {
        byte escape = ESCAPES[c];
        if (escape == 0) {
          out[size++] = (byte) c;
        } else if (escape != 'u') {
          out[size++] = '\\';
          out[size++] = escape;
        } else {
          out[size++] = '\\';
          out[size++] = 'u';
          out[size++] = '0';
          out[size++] = '0';
          out[size++] = HEX[c >> 4];
          out[size++] = HEX[c & 0xf];
        }
      } else if (c < 0x800) {
        out[size++] = (byte) (0xc0 | (c >> 6));
        out[size++] = (byte) (0x80 | (c & 0x3f));
      } else if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c)
            || i + 1 == length
            || !Character.isLowSurrogate(text.charAt(i + 1))) {
          throw failure(loneSurrogate(what, text, i));
        }
        int codePoint = Character.toCodePoint(c, text.charAt(++i));
        out[size++] = (byte) (0xf0 | (codePoint >> 18));
        out[size++] = (byte) (0x80 | ((codePoint >> 12) & 0x3f));
        out[size++] = (byte) (0x80 | ((codePoint >> 6) & 0x3f));
        out[size++] = (byte) (0x80 | (codePoint & 0x3f));
      } else {
        out[size++] = (byte) (0xe0 | (c >> 12));
        out[size++] = (byte) (0x80 | ((c >> 6) & 0x3f));
        out[size++] = (byte) (0x80 | (c & 0x3f));
      }
    }
  }

  // ---- Objects -------------------------------------------------------------------------------

  private Members members(Map<?, ?> map) {
    int count = map.size();
    String[] names = new String[count];
    Object[] values = new Object[count];
    int filled = 0;
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
      if (filled == names.length) {
        // A map whose size() undercounts its entries: take them all rather than drop any.
        names = Arrays.copyOf(names, filled * 2 + 1);
        values = Arrays.copyOf(values, names.length);
      }
      names[filled] = name;
      values[filled++] = entry.getValue();
    }
    // String.compareTo orders by UTF-16 code units, the order RFC 8785 section 3.2.3 requires.
    MemberSort.sort(names, values, filled);
    return new Members(map, names, values, filled);
  }

  /** Checks and writes the name of the member just advanced to; its pointer is now current. */
  private void memberName(Members members) {
    String name = members.name();
    if (members.repeatsPreviousName()) {
      // Possible with IdentityHashMap, or a map with its own idea of key equality.
      throw failure("duplicate member name; RFC 8785 requires unique names (I-JSON)");
    }
    string(name, "member name");
    writeByte(':');
  }

  /** Sorts member names, carrying their values along, by {@link String#compareTo}. */
  static final class MemberSort {
    private MemberSort() {}

    static void sort(String[] names, Object[] values, int count) {
      if (count <= INSERTION_SORT_LIMIT) {
        insertionSort(names, values, 0, count);
        return;
      }
      mergeSort(names.clone(), values.clone(), names, values, 0, count);
    }

    private static void insertionSort(String[] names, Object[] values, int from, int to) {
      for (int i = from + 1; i < to; i++) {
        String name = names[i];
        Object value = values[i];
        int j = i - 1;
        while (j >= from && names[j].compareTo(name) > 0) {
          names[j + 1] = names[j];
          values[j + 1] = values[j];
          j--;
        }
        names[j + 1] = name;
        values[j + 1] = value;
      }
    }

    /**
     * Sorts {@code [from, to)} of the source arrays into the target arrays; both pairs hold the
     * same members on entry, and each level uses the other pair as its scratch space.
     */
    private static void mergeSort(
        String[] sourceNames,
        Object[] sourceValues,
        String[] names,
        Object[] values,
        int from,
        int to) {
      if (to - from <= INSERTION_SORT_LIMIT) {
        System.arraycopy(sourceNames, from, names, from, to - from);
        System.arraycopy(sourceValues, from, values, from, to - from);
        insertionSort(names, values, from, to);
        return;
      }
      int middle = (from + to) >>> 1;
      // Sort both halves into the source arrays, then merge them into the target.
      mergeSort(names, values, sourceNames, sourceValues, from, middle);
      mergeSort(names, values, sourceNames, sourceValues, middle, to);
      int left = from;
      int right = middle;
      for (int at = from; at < to; at++) {
        boolean takeLeft =
            right >= to || (left < middle && sourceNames[left].compareTo(sourceNames[right]) <= 0);
        int taken = takeLeft ? left++ : right++;
        names[at] = sourceNames[taken];
        values[at] = sourceValues[taken];
      }
    }
  }

  // ---- Output --------------------------------------------------------------------------------

  private void ensure(long more) {
    if (out.length - size < more) {
      long wanted = Math.max((long) out.length * 2, size + more);
      if (wanted > Integer.MAX_VALUE - 8) {
        throw failure("canonical text longer than the largest Java array");
      }
      out = Arrays.copyOf(out, (int) wanted);
    }
  }

  private void writeByte(int b) {
    ensure(1);
    out[size++] = (byte) b;
  }

  private void writeBytes(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, out, size, bytes.length);
    size += bytes.length;
  }

  /** Writes text known to be ASCII, such as a formatted number. */
  private void writeAscii(String ascii) {
    int length = ascii.length();
    ensure(length);
    for (int i = 0; i < length; i++) {
      out[size++] = (byte) ascii.charAt(i);
    }
  }

  // ---- Failures ------------------------------------------------------------------------------

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
    for (int i = 0; i < depth; i++) {
      Object token = stack[i].token();
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

  // ---- Containers ----------------------------------------------------------------------------

  /** An array or object being written, and where in it the walk is. */
  private abstract static class OpenContainer {
    final Object value;
    final char opening;
    final char closing;
    /** How many children have been advanced to. */
    int position;

    OpenContainer(Object value, char opening, char closing) {
      this.value = value;
      this.opening = opening;
      this.closing = closing;
    }

    abstract boolean hasNext();

    /** Moves to the next child and returns it. */
    abstract Object advance();

    /** The pointer token of the current child: its index or member name; null before the first. */
    abstract Object token();
  }

  private abstract static class Elements extends OpenContainer {
    Elements(Object value) {
      super(value, '[', ']');
    }

    @Override
    final Object token() {
      return position == 0 ? null : position - 1;
    }
  }

  private static final class IteratedElements extends Elements {
    private final Iterator<?> iterator;

    IteratedElements(Object value, Iterator<?> iterator) {
      super(value);
      this.iterator = iterator;
    }

    @Override
    boolean hasNext() {
      return iterator.hasNext();
    }

    @Override
    Object advance() {
      position++;
      return iterator.next();
    }
  }

  /** A Java array, object or primitive, read element by element (primitives boxed one by one). */
  private static final class ArrayElements extends Elements {
    private final int length;

    ArrayElements(Object array) {
      super(array);
      this.length = Array.getLength(array);
    }

    @Override
    boolean hasNext() {
      return position < length;
    }

    @Override
    Object advance() {
      return Array.get(value, position++);
    }
  }

  private static final class Members extends OpenContainer {
    private final String[] names;
    private final Object[] values;
    private final int count;

    Members(Object value, String[] names, Object[] values, int count) {
      super(value, '{', '}');
      this.names = names;
      this.values = values;
      this.count = count;
    }

    @Override
    boolean hasNext() {
      return position < count;
    }

    @Override
    Object advance() {
      return values[position++];
    }

    @Override
    Object token() {
      return position == 0 ? null : names[position - 1];
    }

    String name() {
      return names[position - 1];
    }

    boolean repeatsPreviousName() {
      return position > 1 && names[position - 2].equals(names[position - 1]);
    }
  }
}
