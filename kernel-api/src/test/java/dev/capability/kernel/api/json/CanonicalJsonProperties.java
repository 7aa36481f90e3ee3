package dev.capability.kernel.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

class CanonicalJsonProperties {
  /** ECMAScript Number::toString output: fixed or exponent form, no superfluous zeros. */
  private static final Pattern ECMASCRIPT_NUMBER =
      Pattern.compile(
          "-?(0|[1-9][0-9]*(\\.[0-9]*[1-9])?|0\\.[0-9]*[1-9]"
              + "|[1-9](\\.[0-9]*[1-9])?e[+-][1-9][0-9]*)");

  private static final ObjectMapper STRICT_JSON =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  // ---- Numbers -----------------------------------------------------------------------------

  @Property(tries = 3000)
  void numbersReadBackAsTheSameDouble(@ForAll("finiteDoubles") double value) {
    double readBack = Double.parseDouble(CanonicalJson.serialize(value));

    assertThat(readBack).isEqualTo(value == 0 ? 0.0 : value);
  }

  @Property(tries = 3000)
  void numbersUseNoMoreDigitsThanJavaDoubleToString(@ForAll("finiteDoubles") double value) {
    assertThat(significantDigits(CanonicalJson.serialize(value)))
        .isLessThanOrEqualTo(significantDigits(Double.toString(value)));
  }

  @Property(tries = 3000)
  void noShorterDigitStringReadsBack(@ForAll("finiteDoubles") double value) {
    int digits = significantDigits(CanonicalJson.serialize(value));
    if (value == 0 || digits == 1) {
      return;
    }
    BigDecimal exact = new BigDecimal(Math.abs(value));
    for (RoundingMode mode : List.of(RoundingMode.FLOOR, RoundingMode.CEILING)) {
      BigDecimal shorter = exact.round(new MathContext(digits - 1, mode));
      assertThat(Double.parseDouble(shorter.toString()))
          .as("%s digits of %s", digits - 1, value)
          .isNotEqualTo(Math.abs(value));
    }
  }

  /**
   * Jackson's port of Schubfach (the algorithm of Java 19's Double.toString) is an independent
   * shortest-digits reference. It differs from ECMAScript only where one digit suffices: it may
   * then print two digits closer to the double (4.9E-324 where ECMAScript prints 5e-324).
   */
  @Property(tries = 3000)
  void agreesWithSchubfachShortestDigits(@ForAll("finiteDoubles") double value) {
    BigDecimal ours = new BigDecimal(CanonicalJson.serialize(value));
    BigDecimal reference = new BigDecimal(DoubleToDecimal.toString(value));

    if (significantDigits(ours.toString()) > 1) {
      assertThat(ours).isEqualByComparingTo(reference);
    } else {
      assertThat(reference.stripTrailingZeros().precision()).isLessThanOrEqualTo(2);
    }
  }

  @Property(tries = 3000)
  void numbersFollowTheEcmaScriptLayout(@ForAll("finiteDoubles") double value) {
    String text = CanonicalJson.serialize(value);
    double magnitude = Math.abs(value);

    assertThat(text).matches(ECMASCRIPT_NUMBER);
    assertThat(text.contains("e"))
        .isEqualTo(magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21));
    assertThat(text.startsWith("-")).isEqualTo(value < 0);
  }

  @Property(tries = 2000)
  void integersAreExactOrRefused(@ForAll("wideLongs") long value) {
    boolean exact = new BigDecimal((double) value).compareTo(BigDecimal.valueOf(value)) == 0;

    if (exact) {
      assertThat(Double.parseDouble(CanonicalJson.serialize(value))).isEqualTo((double) value);
    } else {
      assertThatThrownBy(() -> CanonicalJson.serialize(value))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not exactly representable as an IEEE-754 double");
    }
  }

  // ---- Strings -----------------------------------------------------------------------------

  @Property
  void wellFormedStringsSurviveAJsonParser(@ForAll("unicodeStrings") String text) throws Exception {
    String json = CanonicalJson.serialize(text);

    assertThat(STRICT_JSON.readTree(json).textValue()).isEqualTo(text);
    assertThat(json.chars().filter(c -> c < 0x20)).isEmpty();
  }

  @Property
  void anyCharSequenceIsWrittenLosslesslyOrRefused(@ForAll("anyChars") String text)
      throws Exception {
    boolean wellFormed = text.codePoints().noneMatch(c -> c >= 0xd800 && c <= 0xdfff);

    if (wellFormed) {
      assertThat(STRICT_JSON.readTree(CanonicalJson.bytes(text)).textValue()).isEqualTo(text);
    } else {
      assertThatThrownBy(() -> CanonicalJson.serialize(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("lone surrogate");
    }
  }

  // ---- Structures --------------------------------------------------------------------------

  @Property(edgeCases = EdgeCasesMode.MIXIN)
  void outputIgnoresMemberInsertionOrder(@ForAll("jsonValues") Object value, @ForAll Random random) {
    Object reordered = reordered(value, random);

    assertThat(CanonicalJson.serialize(reordered)).isEqualTo(CanonicalJson.serialize(value));
    assertThat(CanonicalJson.sha256(reordered)).isEqualTo(CanonicalJson.sha256(value));
  }

  @Property(edgeCases = EdgeCasesMode.MIXIN)
  void reparsingCanonicalOutputGivesTheSameText(@ForAll("jsonValues") Object value)
      throws Exception {
    String canonical = CanonicalJson.serialize(value);

    Object reparsed = asJcsValue(STRICT_JSON.readTree(canonical));

    assertThat(CanonicalJson.serialize(reparsed)).isEqualTo(canonical);
  }

  @Property(edgeCases = EdgeCasesMode.MIXIN)
  void outputHasNoWhitespaceOutsideStrings(@ForAll("jsonValues") Object value) {
    String canonical = CanonicalJson.serialize(value);

    boolean inString = false;
    for (int i = 0; i < canonical.length(); i++) {
      char c = canonical.charAt(i);
      if (inString && c == '\\') {
        i++;
      } else if (c == '"') {
        inString = !inString;
      } else if (!inString) {
        assertThat(c).as("character %d of %s", i, canonical).isNotIn(' ', '\t', '\n', '\r');
      }
    }
  }

  // ---- Generators --------------------------------------------------------------------------

  @Provide
  Arbitrary<Double> finiteDoubles() {
    return Arbitraries.oneOf(
        // every bit pattern: all exponents, subnormals, both signs
        Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite),
        Arbitraries.doubles(),
        // powers of two sit where the rounding interval is lopsided
        Arbitraries.integers().between(-1074, 1023).map(e -> Math.scalb(1.0, e)),
        Arbitraries.integers().between(-1074, 1023).map(e -> Math.nextDown(Math.scalb(1.0, e))),
        // short decimals, as people write them
        Arbitraries.integers()
            .between(-99_999, 99_999)
            .flatMap(
                digits ->
                    Arbitraries.integers()
                        .between(-30, 30)
                        .map(exponent -> Double.parseDouble(digits + "e" + exponent))),
        // integers on both sides of 2^53, and around the 1e21 switch to exponent form
        Arbitraries.longs().between(-(1L << 54), 1L << 54).map(l -> (double) l),
        doublesBetween(1e20, 1e22),
        doublesBetween(1e-7, 1e-5));
  }

  /** Uniform over the doubles themselves: bit patterns of positive doubles ascend with value. */
  private static Arbitrary<Double> doublesBetween(double low, double high) {
    return Arbitraries.longs()
        .between(Double.doubleToLongBits(low), Double.doubleToLongBits(high))
        .map(Double::longBitsToDouble);
  }

  @Provide
  Arbitrary<Long> wideLongs() {
    return Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between((1L << 53) - 100, (1L << 53) + 100),
        Arbitraries.integers().between(0, 62).map(shift -> 1L << shift).flatMap(
            power -> Arbitraries.longs().between(-3, 3).map(delta -> power + delta)));
  }

  @Provide
  Arbitrary<String> unicodeStrings() {
    Arbitrary<Integer> codePoints =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(0x20, 0x7e)),
            Tuple.of(2, Arbitraries.integers().between(0, 0x1f)),
            Tuple.of(2, Arbitraries.integers().between(0x7f, 0xd7ff)),
            Tuple.of(1, Arbitraries.integers().between(0xe000, 0xffff)),
            Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10ffff)));
    return codePoints
        .list()
        .ofMaxSize(8)
        .map(
            points -> {
              StringBuilder text = new StringBuilder();
              points.forEach(text::appendCodePoint);
              return text.toString();
            });
  }

  @Provide
  Arbitrary<String> anyChars() {
    Arbitrary<Character> chars =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.chars().range('a', 'c')),
            Tuple.of(2, Arbitraries.chars().range('\ud800', '\udfff')),
            Tuple.of(1, Arbitraries.chars()));
    return chars.list().ofMaxSize(6).map(list -> {
      StringBuilder text = new StringBuilder();
      list.forEach(text::append);
      return text.toString();
    });
  }

  @Provide
  Arbitrary<Object> jsonValues() {
    return Arbitraries.recursive(this::jsonLeaves, this::jsonContainers, 0, 4);
  }

  private Arbitrary<Object> jsonLeaves() {
    return Arbitraries.oneOf(
        Arbitraries.<Object>just(null),
        Arbitraries.of(true, false).map(Object.class::cast),
        unicodeStrings().map(Object.class::cast),
        finiteDoubles().map(Object.class::cast),
        Arbitraries.integers().map(Object.class::cast),
        Arbitraries.longs().between(-(1L << 53), 1L << 53).map(Object.class::cast));
  }

  private Arbitrary<Object> jsonContainers(Arbitrary<Object> elements) {
    Arbitrary<Object> lists = elements.list().ofMaxSize(4).map(Object.class::cast);
    Arbitrary<Object> maps =
        Arbitraries.maps(unicodeStrings(), elements)
            .ofMaxSize(5)
            .map(map -> (Object) new LinkedHashMap<>(map));
    return Arbitraries.oneOf(lists, maps);
  }

  // ---- Helpers -----------------------------------------------------------------------------

  private static int significantDigits(String number) {
    return new BigDecimal(number).stripTrailingZeros().precision();
  }

  private static Object reordered(Object value, Random random) {
    if (value instanceof Map<?, ?> map) {
      List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
      Collections.shuffle(entries, random);
      Map<Object, Object> shuffled = new LinkedHashMap<>();
      entries.forEach(e -> shuffled.put(e.getKey(), reordered(e.getValue(), random)));
      return shuffled;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(element -> copy.add(reordered(element, random)));
      return copy;
    }
    return value;
  }

  /** A parsed JSON tree as JCS sees it: every number an IEEE-754 double. */
  private static Object asJcsValue(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> members = new LinkedHashMap<>();
      node.properties().forEach(e -> members.put(e.getKey(), asJcsValue(e.getValue())));
      return members;
    }
    if (node.isArray()) {
      List<Object> elements = new ArrayList<>();
      node.forEach(element -> elements.add(asJcsValue(element)));
      return elements;
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    assertThat(node.isNull()).as("unexpected node %s", node).isTrue();
    return null;
  }
}
