package dev.capability.kernel.api.json.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The byte writer's fast paths (digits of small integers written in place, ASCII copied byte by
 * byte, UTF-8 encoded while escaping, members sorted as parallel arrays, cycles found by a stack
 * scan) give byte for byte what {@link ReferenceCanonicalWriter}, the first writer with every
 * number through the exact digit search, gives, and refuse exactly what it refuses, with the same
 * message.
 */
class CanonicalWriterFastPathProperties {
  private static final int DEPTH = 1000;

  @Property(tries = 3000)
  void longsPrintAsTheDigitSearchPrintsThem(@ForAll("longs") long value) {
    assertSameAsReference(value);
    if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
      assertSameAsReference((int) value);
      assertSameAsReference((short) value);
      assertSameAsReference((byte) value);
    }
  }

  @Property(tries = 3000)
  void doublesPrintAsTheDigitSearchPrintsThem(@ForAll("doubles") double value) {
    assertSameAsReference(value);
    assertSameAsReference((float) value);
  }

  @Property(tries = 2000)
  void stringsAreEncodedAsTheReferenceEncodesThem(@ForAll("texts") String text) {
    assertSameAsReference(text);
    assertSameAsReference(Map.of(text, text));
  }

  @Property(tries = 500, edgeCases = EdgeCasesMode.MIXIN)
  void nestedValuesAreWrittenAsTheReferenceWritesThem(@ForAll("values") Object value) {
    assertSameAsReference(value);
  }

  @Property(tries = 300)
  void largeObjectsAreSortedByUtf16CodeUnits(
      @ForAll("memberLists") List<Tuple.Tuple2<String, Long>> members) {
    Map<String, Object> inserted = new LinkedHashMap<>();
    Map<String, Object> reversed = new TreeMap<>(Comparator.reverseOrder());
    for (Tuple.Tuple2<String, Long> member : members) {
      inserted.put(member.get1(), member.get2());
      reversed.put(member.get1(), member.get2());
    }
    assertSameAsReference(inserted);
    assertSameAsReference(reversed);
    assertThat(CanonicalWriter.bytes(reversed, DEPTH))
        .isEqualTo(CanonicalWriter.bytes(inserted, DEPTH));
  }

  @Property(tries = 300)
  void duplicateNamesAreRefusedWhereverTheySort(
      @ForAll("memberLists") List<Tuple.Tuple2<String, Long>> members) {
    Map<String, Object> twins = new IdentityHashMap<>();
    for (Tuple.Tuple2<String, Long> member : members) {
      twins.put(new String(member.get1()), member.get2());
    }
    if (!members.isEmpty()) {
      twins.put(new String(members.get(0).get1()), 0L);
    }
    assertSameAsReference(twins);
  }

  private static void assertSameAsReference(Object value) {
    Throwable expectedFailure = null;
    String expected = null;
    try {
      expected = ReferenceCanonicalWriter.write(value, DEPTH);
    } catch (IllegalArgumentException e) {
      expectedFailure = e;
    }
    if (expectedFailure != null) {
      Throwable failure = catchThrowable(() -> CanonicalWriter.bytes(value, DEPTH));
      assertThat(failure)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(expectedFailure.getMessage());
      assertThat(catchThrowable(() -> CanonicalWriter.write(value, DEPTH)))
          .hasMessage(expectedFailure.getMessage());
      return;
    }
    assertThat(CanonicalWriter.bytes(value, DEPTH))
        .isEqualTo(expected.getBytes(StandardCharsets.UTF_8));
    assertThat(CanonicalWriter.write(value, DEPTH)).isEqualTo(expected);
  }

  // ---- Generators --------------------------------------------------------------------------

  @Provide
  Arbitrary<Long> longs() {
    return Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between(-1000, 1000),
        // both edges of the fast path, 2^53, and the extremes
        Arbitraries.longs().between((1L << 53) - 3, (1L << 53) + 3),
        Arbitraries.longs().between(-(1L << 53) - 3, -(1L << 53) + 3),
        Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, 0L),
        // every length of digits, and powers of two with neighbours
        Arbitraries.integers().between(0, 18).flatMap(
            digits -> Arbitraries.longs().between(-3, 3).map(d -> pow10(digits) + d)),
        Arbitraries.integers().between(0, 62).flatMap(
            shift -> Arbitraries.longs().between(-3, 3).map(d -> (1L << shift) + d)));
  }

  private static long pow10(int digits) {
    long power = 1;
    for (int i = 0; i < digits; i++) {
      power *= 10;
    }
    return power;
  }

  @Provide
  Arbitrary<Double> doubles() {
    return Arbitraries.oneOf(
        Arbitraries.longs().map(Double::longBitsToDouble),
        Arbitraries.doubles(),
        Arbitraries.longs().between(-(1L << 54), 1L << 54).map(l -> (double) l),
        Arbitraries.longs().between(-100_000, 100_000).map(l -> l / 8.0),
        Arbitraries.of(
            -0.0, 0.0, 0x1p53, -0x1p53, Math.nextDown(0x1p53), Math.nextUp(0x1p53), 1e21, 1e-7,
            Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY));
  }

  @Provide
  Arbitrary<String> texts() {
    Arbitrary<Character> chars =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.chars().range(' ', '~')),
            Tuple.of(2, Arbitraries.chars().range('\0', '\u001f')),
            Tuple.of(2, Arbitraries.of('"', '\\', '\u007f', '\u2028', '\u2029')),
            Tuple.of(2, Arbitraries.chars().range('\u0080', '\u07ff')),
            Tuple.of(2, Arbitraries.chars().range('\u0800', '\uffff')),
            Tuple.of(3, Arbitraries.chars().range('\ud800', '\udfff')));
    Arbitrary<String> loose = chars.list().ofMaxSize(12).map(CanonicalWriterFastPathProperties::join);
    Arbitrary<String> pairs =
        Arbitraries.integers()
            .between(0x10000, 0x10ffff)
            .list()
            .ofMaxSize(4)
            .map(points -> {
              StringBuilder text = new StringBuilder();
              points.forEach(text::appendCodePoint);
              return text.toString();
            });
    return Arbitraries.oneOf(loose, pairs, Arbitraries.strings().ascii().ofMaxLength(40));
  }

  private static String join(List<Character> chars) {
    StringBuilder text = new StringBuilder();
    chars.forEach(text::append);
    return text.toString();
  }

  /** Names from a small alphabet that UTF-16 and code point order sort differently. */
  private Arbitrary<String> names() {
    return Arbitraries.of("a", "b", "\u00e9", "\uffff", "\ud83d\ude00", "\ud800", "/", "~")
        .list()
        .ofMaxSize(3)
        .map(parts -> String.join("", parts));
  }

  @Provide
  Arbitrary<List<Tuple.Tuple2<String, Long>>> memberLists() {
    // Well-formed names whose UTF-16 order differs from their code point order: U+FFFF sorts
    // after the surrogate pair of U+1F600.
    return Arbitraries.of("a", "b", "\u00e9", "\uffff", "\ud83d\ude00")
        .list()
        .ofMaxSize(5)
        .map(parts -> String.join("", parts))
        .flatMap(
            name -> Arbitraries.longs().between(-(1L << 53) + 1, (1L << 53) - 1).map(v -> Tuple.of(name, v)))
        .list()
        .ofMaxSize(80);
  }

  @Provide
  Arbitrary<Object> values() {
    return Arbitraries.recursive(this::leaves, this::containers, 0, 4);
  }

  private Arbitrary<Object> leaves() {
    return Arbitraries.oneOf(
        Arbitraries.<Object>just(null),
        Arbitraries.of(true, false).map(Object.class::cast),
        texts().map(Object.class::cast),
        doubles().map(Object.class::cast),
        longs().map(Object.class::cast),
        Arbitraries.integers().map(Object.class::cast));
  }

  private Arbitrary<Object> containers(Arbitrary<Object> elements) {
    Arbitrary<Object> lists = elements.list().ofMaxSize(4).map(Object.class::cast);
    Arbitrary<Object> arrays = elements.list().ofMaxSize(3).map(list -> (Object) list.toArray());
    Arbitrary<Object> maps =
        Arbitraries.maps(names(), elements).ofMaxSize(20).map(map -> (Object) new LinkedHashMap<>(map));
    Arbitrary<Object> shuffled =
        Arbitraries.maps(names(), elements)
            .ofMaxSize(20)
            .map(
                map -> {
                  List<Map.Entry<String, Object>> entries = new ArrayList<>(map.entrySet());
                  Collections.reverse(entries);
                  Map<String, Object> reversed = new LinkedHashMap<>();
                  entries.forEach(e -> reversed.put(e.getKey(), e.getValue()));
                  return (Object) reversed;
                });
    return Arbitraries.oneOf(lists, arrays, maps, shuffled);
  }
}
