package dev.capability.kernel.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.Sha256;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CanonicalJsonTest {

  // ---- RFC 8785 examples -------------------------------------------------------------------

  /** RFC 8785 section 3.2.2: the sample object, with its numbers parsed the way ES parses them. */
  @Test
  void serializesTheRfcSampleObject() {
    Map<String, Object> sample = new LinkedHashMap<>();
    sample.put(
        "numbers",
        List.of(
            Double.parseDouble("333333333.33333329"),
            Double.parseDouble("1E30"),
            Double.parseDouble("4.50"),
            Double.parseDouble("2e-3"),
            Double.parseDouble("0.000000000000000000000000001")));
    sample.put("string", "\u20ac$\u000f\nA'B\"\\\\\"/");
    sample.put("literals", Arrays.asList(null, true, false));

    assertThat(CanonicalJson.serialize(sample))
        .isEqualTo(
            "{\"literals\":[null,true,false],"
                + "\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
  }

  /** RFC 8785 sections 3.2.3 and 3.2.4: members sorted by UTF-16 code units, then UTF-8. */
  @Test
  void sortsMembersByUtf16CodeUnitsAsTheRfcExampleDoes() {
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("\u20ac", "Euro Sign");
    object.put("\r", "Carriage Return");
    object.put("\ufb33", "Hebrew Letter Dalet With Dagesh");
    object.put("1", "One");
    object.put("\ud83d\ude00", "Emoji: Grinning Face");
    object.put("\u0080", "Control");
    object.put("\u00f6", "Latin Small Letter O With Diaeresis");

    String canonical = CanonicalJson.serialize(object);

    assertThat(canonical)
        .isEqualTo(
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
                + "\"\ud83d\ude00\":\"Emoji: Grinning Face\","
                + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
    // The emoji sorts before U+FB33 by code unit (U+D83D) though after it by code point.
    assertThat(canonical.indexOf("Emoji")).isLessThan(canonical.indexOf("Hebrew"));
    assertThat(HexFormat.of().formatHex(CanonicalJson.bytes(object)))
        .isEqualTo(
            ("7b 22 5c 72 22 3a 22 43 61 72 72 69 61 67 65 20 52 65 74 75 72"
                    + " 6e 22 2c 22 31 22 3a 22 4f 6e 65 22 2c 22 c2 80 22 3a 22 43 6f"
                    + " 6e 74 72 6f 6c 22 2c 22 c3 b6 22 3a 22 4c 61 74 69 6e 20 53 6d"
                    + " 61 6c 6c 20 4c 65 74 74 65 72 20 4f 20 57 69 74 68 20 44 69 61"
                    + " 65 72 65 73 69 73 22 2c 22 e2 82 ac 22 3a 22 45 75 72 6f 20 53"
                    + " 69 67 6e 22 2c 22 f0 9f 98 80 22 3a 22 45 6d 6f 6a 69 3a 20 47"
                    + " 72 69 6e 6e 69 6e 67 20 46 61 63 65 22 2c 22 ef ac b3 22 3a 22"
                    + " 48 65 62 72 65 77 20 4c 65 74 74 65 72 20 44 61 6c 65 74 20 57"
                    + " 69 74 68 20 44 61 67 65 73 68 22 7d")
                .replace(" ", ""));
  }

  /** RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical text. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0000000000000000, 0",
    "8000000000000000, 0",
    "0000000000000001, 5e-324",
    "8000000000000001, -5e-324",
    "7fefffffffffffff, 1.7976931348623157e+308",
    "ffefffffffffffff, -1.7976931348623157e+308",
    "4340000000000000, 9007199254740992",
    "c340000000000000, -9007199254740992",
    "4430000000000000, 295147905179352830000",
    "44b52d02c7e14af5, 9.999999999999997e+22",
    "44b52d02c7e14af6, 1e+23",
    "44b52d02c7e14af7, 1.0000000000000001e+23",
    "444b1ae4d6e2ef4e, 999999999999999700000",
    "444b1ae4d6e2ef4f, 999999999999999900000",
    "444b1ae4d6e2ef50, 1e+21",
    "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
    "3eb0c6f7a0b5ed8d, 0.000001",
    "41b3de4355555553, 333333333.3333332",
    "41b3de4355555554, 333333333.33333325",
    "41b3de4355555555, 333333333.3333333",
    "41b3de4355555556, 333333333.3333334",
    "41b3de4355555557, 333333333.33333343",
    "becbf647612f3696, -0.0000033333333333333333",
    "43143ff3c1cb0959, 1424953923781206.2",
  })
  void serializesTheRfcNumberSamples(String bits, String expected) {
    double value = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));

    assertThat(CanonicalJson.serialize(value)).isEqualTo(expected);
  }

  /** RFC 8785 Appendix B also lists NaN and Infinity, which have no JSON form. */
  @ParameterizedTest
  @CsvSource({"7fffffffffffffff", "7ff0000000000000", "fff0000000000000"})
  void refusesTheRfcNonFiniteSamples(String bits) {
    double value = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));

    assertThatThrownBy(() -> CanonicalJson.serialize(Map.of("n", List.of(1, value))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("finite")
        .hasMessageEndingWith("at JSON pointer \"/n/1\"");
  }

  /** The sample from the RFC author's test data, with a DEL and an HTML-looking name. */
  @Test
  void keepsDelAndMarkupLiteral() {
    Map<String, Object> weird = new HashMap<>();
    weird.put("\u20ac", "Euro Sign");
    weird.put("1", "One");
    weird.put("\u0080", "Control\u007f");
    weird.put("\ud83d\ude02", "Smiley");
    weird.put("\u00f6", "Latin Small Letter O With Diaeresis");
    weird.put("\ufb33", "Hebrew Letter Dalet With Dagesh");
    weird.put("</script>", "Browser Challenge");

    assertThat(CanonicalJson.serialize(weird))
        .isEqualTo(
            "{\"1\":\"One\",\"</script>\":\"Browser Challenge\",\"\u0080\":\"Control\u007f\","
                + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
                + "\"\ud83d\ude02\":\"Smiley\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
  }

  // ---- Strings -----------------------------------------------------------------------------

  @Test
  void escapesEveryControlCharacterAsJsonStringifyDoes() {
    StringBuilder controls = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      controls.append(c);
    }

    assertThat(CanonicalJson.serialize(controls.toString()))
        .isEqualTo(
            "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
                + "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
                + "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\"");
  }

  @Test
  void escapesOnlyQuoteAndBackslashAmongPrintables() {
    assertThat(CanonicalJson.serialize("\"\\/<>&'\u007f"))
        .isEqualTo("\"\\\"\\\\/<>&'\u007f\"");
  }

  @Test
  void keepsLineSeparatorsAndNonAsciiLiteral() {
    String text = "\u2028\u2029\u00e9e\u0301\u200b\ufeff\uffff";

    assertThat(CanonicalJson.serialize(text)).isEqualTo("\"" + text + "\"");
  }

  @Test
  void keepsSurrogatePairsAndEncodesThemAsFourUtf8Bytes() {
    String text = "\ud83d\ude00\udbff\udfff";

    assertThat(CanonicalJson.serialize(text)).isEqualTo("\"" + text + "\"");
    assertThat(HexFormat.of().formatHex(CanonicalJson.bytes(text)))
        .isEqualTo("22f09f9880f48fbfbf22");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "high at end, 'ab\ud83d', 2, D83D",
    "low alone, 'a\ude00b', 1, DE00",
    "reversed pair, '\ude00\ud83d', 0, DE00",
    "high before letter, '\ud83dx', 0, D83D",
    "two highs, '\ud83d\ud83d\ude00', 0, D83D",
  })
  void refusesLoneSurrogatesInStrings(String name, String text, int index, String unit) {
    assertThatThrownBy(() -> CanonicalJson.serialize(Map.of("k", List.of(text))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lone surrogate U+" + unit + " at index " + index)
        .hasMessageEndingWith("at JSON pointer \"/k/0\"");
  }

  @Test
  void refusesLoneSurrogatesInMemberNamesAndEscapesThemInTheMessage() {
    assertThatThrownBy(() -> CanonicalJson.serialize(Map.of("a", Map.of("x\ud800", 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("member name has a lone surrogate U+D800 at index 1")
        .hasMessageEndingWith("at JSON pointer \"/a/x\\ud800\"");
  }

  @Test
  void refusesLoneSurrogatesBeforeProducingBytes() {
    // String.getBytes would silently turn the surrogate into '?', colliding with "a?".
    assertThatThrownBy(() -> CanonicalJson.bytes("a\ud800"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CanonicalJson.sha256("a\ud800"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---- Numbers -----------------------------------------------------------------------------

  @Test
  void printsIntegralTypesAsTheirDoubles() {
    List<Object> numbers =
        List.of(
            (byte) -128,
            (short) 32767,
            Integer.MIN_VALUE,
            Long.MIN_VALUE,
            1L << 53,
            -(1L << 53) + 1,
            BigInteger.TWO.pow(68),
            BigInteger.TWO.pow(1023));

    assertThat(CanonicalJson.serialize(numbers))
        .isEqualTo(
            "[-128,32767,-2147483648,-9223372036854776000,9007199254740992,-9007199254740991,"
                + "295147905179352830000,8.98846567431158e+307]");
  }

  @Test
  void refusesIntegersThatADoubleCannotHoldAndSaysWhy() {
    assertThatThrownBy(() -> CanonicalJson.serialize(Map.of("id", (1L << 53) + 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("integer 9007199254740993 is not exactly representable")
        .hasMessageContaining("rounded to 9007199254740992")
        .hasMessageContaining("send it as a JSON string")
        .hasMessageEndingWith("at JSON pointer \"/id\"");
    assertThatThrownBy(() -> CanonicalJson.serialize(Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("integer 9223372036854775807 is not exactly representable");
    assertThatThrownBy(
            () -> CanonicalJson.serialize(new BigInteger("295147905179352830000")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not exactly representable");
  }

  @Test
  void refusesIntegersBeyondTheDoubleRange() {
    assertThatThrownBy(() -> CanonicalJson.serialize(BigInteger.TWO.pow(1024)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1025 bits is beyond the IEEE-754 double range");
    assertThatThrownBy(() -> CanonicalJson.serialize(BigInteger.TWO.pow(1024).negate()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1025 bits is beyond the IEEE-754 double range");
    // Below 2^1024 yet above the largest double by more than half a step: rounds to infinity.
    assertThatThrownBy(() -> CanonicalJson.serialize(BigInteger.TWO.pow(1024).subtract(BigInteger.ONE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1024 bits is beyond the IEEE-754 double range");
    assertThatThrownBy(() -> CanonicalJson.serialize(BigInteger.TEN.pow(100_000).negate()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beyond the IEEE-754 double range");
  }

  @Test
  void acceptsDecimalsThatAreExactlyDoubles() {
    List<Object> numbers =
        List.of(
            new BigDecimal("0.5"),
            new BigDecimal("-1.25E+3"),
            new BigDecimal("100.000"),
            new BigDecimal("0E-20"),
            new BigDecimal(0.1),
            new BigDecimal(Double.MIN_VALUE));

    assertThat(CanonicalJson.serialize(numbers)).isEqualTo("[0.5,-1250,100,0,0.1,5e-324]");
  }

  @ParameterizedTest
  @CsvSource({
    "0.1", "1E+23", "1E+400", "-1E-400", "9007199254740993", "1E-999999999", "1E+2147483647",
    "-1E-2147483647"
  })
  void refusesDecimalsThatAreNotExactlyDoubles(String decimal) {
    assertThatThrownBy(() -> CanonicalJson.serialize(List.of(new BigDecimal(decimal))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("IEEE-754 double")
        .hasMessageEndingWith("at JSON pointer \"/0\"");
  }

  @Test
  void cutsHugeNumbersInMessages() {
    BigDecimal huge = new BigDecimal("0." + "3".repeat(5000));

    assertThatThrownBy(() -> CanonicalJson.serialize(huge))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("(5002 characters)")
        .matches(e -> e.getMessage().length() < 1000, "message is short");
  }

  @Test
  void widensFloatsExactly() {
    assertThat(CanonicalJson.serialize(List.of(0.1f, 1.5f, -0.0f, Float.MAX_VALUE)))
        .isEqualTo("[0.10000000149011612,1.5,0,3.4028234663852886e+38]");
  }

  @Test
  void refusesNonFiniteFloatsAndDoubles() {
    for (Object value : List.of(Float.NaN, Float.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY)) {
      assertThatThrownBy(() -> CanonicalJson.serialize(value))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("RFC 8785 allows only finite IEEE-754 doubles")
          .hasMessageEndingWith("at JSON pointer \"\"");
    }
  }

  @Test
  void printsNegativeZeroAsZero() {
    assertThat(CanonicalJson.serialize(-0.0)).isEqualTo("0");
  }

  @Test
  void switchesToExponentFormExactlyAtTheEcmaScriptBounds() {
    List<Double> values = List.of(1e21, 999999999999999900000.0, 1e-6, 9.99e-7, 1.5e-7, 123e25);

    assertThat(CanonicalJson.serialize(values))
        .isEqualTo("[1e+21,999999999999999900000,0.000001,9.99e-7,1.5e-7,1.23e+27]");
  }

  @ParameterizedTest(name = "Java 17 prints {0}")
  @CsvSource({
    "9.999999999999999E22, 1e+23",
    "1.9999999999999998E23, 2e+23",
    "5.6843418860808015E-14, 5.684341886080802e-14",
    "2.82879384806159008E17, 282879384806159000",
    "2.31845256772633248E17, 231845256772633250",
  })
  void findsShorterDigitsThanJava17DoubleToString(String java17Text, String expected) {
    // The left column is what Java 17's Double.toString prints for these doubles: one digit more
    // than needed (JDK-4511638); ECMAScript, and so RFC 8785, wants the shortest.
    assertThat(CanonicalJson.serialize(Double.parseDouble(java17Text))).isEqualTo(expected);
  }

  /**
   * Just above a power of two the doubles are twice as far apart as just below, so the nearest
   * short decimal can fail to read back while the one on the far side succeeds. Rounding to
   * nearest alone would print 17 digits here (2^-24 as 5.9604644775390625e-8).
   */
  @ParameterizedTest(name = "2^{0}")
  @CsvSource({
    "-24, 5.960464477539063e-8",
    "-44, 5.684341886080802e-14",
    "89, 6.189700196426902e+26",
    "-1017, 7.120236347223045e-307",
    "976, 6.386688990511104e+293",
  })
  void findsTheShortestDigitsAcrossTheWiderGapAbovePowersOfTwo(int exponent, String expected) {
    assertThat(CanonicalJson.serialize(Math.scalb(1.0, exponent))).isEqualTo(expected);
  }

  /** Jackson's Schubfach (Java 19's algorithm) as the reference; see CanonicalJsonProperties. */
  @Test
  void agreesWithSchubfachOnEveryPowerOfTwo() {
    for (int exponent = -1074; exponent <= 1023; exponent++) {
      double power = Math.scalb(1.0, exponent);
      BigDecimal ours = new BigDecimal(CanonicalJson.serialize(power));
      BigDecimal reference = new BigDecimal(DoubleToDecimal.toString(power));

      if (ours.stripTrailingZeros().precision() > 1) {
        assertThat(ours).as("2^%d", exponent).isEqualByComparingTo(reference);
      } else {
        assertThat(Double.parseDouble(ours.toString())).isEqualTo(power);
      }
    }
  }

  @Test
  void refusesOtherNumberTypesIncludingSubclassesOfBigDecimal() {
    Object lyingDecimal =
        new BigDecimal("1") {
          private static final long serialVersionUID = 1L;

          @Override
          public String toString() {
            return "2";
          }
        };

    for (Object value : List.of(new AtomicLong(1), lyingDecimal)) {
      assertThatThrownBy(() -> CanonicalJson.serialize(List.of(value)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unsupported number type " + value.getClass().getName())
          .hasMessageEndingWith("at JSON pointer \"/0\"");
    }
  }

  // ---- Objects, arrays and other values -----------------------------------------------------

  @Test
  void serializesLiteralsAndEmptyContainers() {
    assertThat(CanonicalJson.serialize(null)).isEqualTo("null");
    assertThat(CanonicalJson.serialize(true)).isEqualTo("true");
    assertThat(CanonicalJson.serialize(Map.of())).isEqualTo("{}");
    assertThat(CanonicalJson.serialize(List.of())).isEqualTo("[]");
    assertThat(CanonicalJson.serialize(new int[0])).isEqualTo("[]");
  }

  @Test
  void keepsNullMemberValues() {
    Map<String, Object> object = new HashMap<>();
    object.put("b", null);
    object.put("a", List.of());

    assertThat(CanonicalJson.serialize(object)).isEqualTo("{\"a\":[],\"b\":null}");
  }

  @Test
  void sortsNestedMembersIgnoringTheMapsOwnOrder() {
    Map<String, Object> reversed = new TreeMap<>(Collections.reverseOrder());
    reversed.put("a", 1);
    reversed.put("b", Map.of("z", 1, "y", 2, "", 0, "yy", 3));
    reversed.put("aa", "x");
    reversed.put("B", true);

    assertThat(CanonicalJson.serialize(reversed))
        .isEqualTo("{\"B\":true,\"a\":1,\"aa\":\"x\",\"b\":{\"\":0,\"y\":2,\"yy\":3,\"z\":1}}");
  }

  @Test
  void writesArraysInIterationOrder() {
    Object value =
        List.of(
            new int[] {3, 1},
            new long[] {-1},
            new double[] {0.5},
            new boolean[] {true, false},
            new String[] {"b", "a"},
            new Object[] {null, List.of()},
            new TreeSet<>(List.of("b", "a")),
            new LinkedHashSet<>(List.of("b", "a")),
            new ArrayDeque<>(List.of(2, 1)));

    assertThat(CanonicalJson.serialize(value))
        .isEqualTo(
            "[[3,1],[-1],[0.5],[true,false],[\"b\",\"a\"],[null,[]],"
                + "[\"a\",\"b\"],[\"b\",\"a\"],[2,1]]");
  }

  @Test
  void refusesUnorderedCollections() {
    for (Object set : List.of(Set.of("a", "b"), new HashSet<>(List.of(1)), Map.of().values())) {
      assertThatThrownBy(() -> CanonicalJson.serialize(Map.of("s", set)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unordered collection " + set.getClass().getName())
          .hasMessageEndingWith("at JSON pointer \"/s\"");
    }
  }

  @Test
  void refusesUnsupportedTypesNamingThem() {
    for (Object value : List.of(new Date(0), 'c', Thread.State.NEW, new Object(), Map.entry(1, 2))) {
      assertThatThrownBy(() -> CanonicalJson.serialize(Map.of("v", List.of(1, value))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unsupported type " + value.getClass().getName())
          .hasMessageEndingWith("at JSON pointer \"/v/1\"");
    }
  }

  @Test
  void refusesCharArraysAsAmbiguousText() {
    assertThatThrownBy(() -> CanonicalJson.serialize(new char[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("char[] is text");
  }

  @Test
  void refusesNonStringMemberNames() {
    Map<Object, Object> numeric = new HashMap<>();
    numeric.put(1, "one");
    Map<Object, Object> nullKey = new HashMap<>();
    nullKey.put(null, "none");

    assertThatThrownBy(() -> CanonicalJson.serialize(Map.of("m", numeric)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("member name of type java.lang.Integer")
        .hasMessageEndingWith("at JSON pointer \"/m\"");
    assertThatThrownBy(() -> CanonicalJson.serialize(List.of(nullKey)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("member name is null")
        .hasMessageEndingWith("at JSON pointer \"/0\"");
  }

  @Test
  void refusesDuplicateMemberNamesFromIdentityMaps() {
    // new String(...) makes distinct objects that an IdentityHashMap keeps as two keys.
    Map<String, Object> twins = new IdentityHashMap<>();
    twins.put(new String("id"), 1);
    twins.put(new String("id"), 2);

    assertThatThrownBy(() -> CanonicalJson.serialize(twins))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duplicate member name")
        .hasMessageEndingWith("at JSON pointer \"/id\"");
  }

  @Test
  void refusesReferenceCyclesInsteadOfOverflowingTheStack() {
    List<Object> list = new ArrayList<>();
    list.add(1);
    list.add(list);
    Map<String, Object> map = new HashMap<>();
    map.put("self", List.of(map));
    Object[] array = new Object[1];
    array[0] = array;

    assertThatThrownBy(() -> CanonicalJson.serialize(list))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reference cycle")
        .hasMessageEndingWith("at JSON pointer \"/1\"");
    assertThatThrownBy(() -> CanonicalJson.serialize(map))
        .hasMessageContaining("reference cycle")
        .hasMessageEndingWith("at JSON pointer \"/self/0\"");
    assertThatThrownBy(() -> CanonicalJson.serialize(array))
        .hasMessageContaining("reference cycle")
        .hasMessageEndingWith("at JSON pointer \"/0\"");
  }

  @Test
  void acceptsTheSameValueTwiceWhenItIsNotACycle() {
    List<Integer> shared = List.of(1);

    assertThat(CanonicalJson.serialize(Map.of("a", shared, "b", List.of(shared, shared))))
        .isEqualTo("{\"a\":[1],\"b\":[[1],[1]]}");
  }

  @Test
  void acceptsNestingUpToTheLimitAndRefusesOneMore() {
    assertThat(CanonicalJson.serialize(nested(CanonicalJson.MAX_DEPTH)))
        .isEqualTo("[".repeat(CanonicalJson.MAX_DEPTH) + "]".repeat(CanonicalJson.MAX_DEPTH));
    assertThatThrownBy(() -> CanonicalJson.serialize(nested(CanonicalJson.MAX_DEPTH + 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nesting deeper than 1000 arrays and objects")
        .hasMessageContaining("(2000 characters)")
        .matches(e -> e.getMessage().length() < 600, "message is short");
  }

  @Test
  void handlesTheDepthLimitOnASmallThreadStack() throws Exception {
    // The walk keeps its own stack: neither the limit nor a far deeper value overflows a small one.
    List<Object> outcomes = new ArrayList<>();
    Runnable walk =
        () -> {
          outcomes.add(CanonicalJson.serialize(nested(CanonicalJson.MAX_DEPTH)).length());
          try {
            CanonicalJson.serialize(nested(100_000));
          } catch (IllegalArgumentException expected) {
            outcomes.add(expected.getClass());
          }
        };
    Thread thread = new Thread(null, walk, "small-stack", 256 * 1024);
    thread.setUncaughtExceptionHandler((t, e) -> outcomes.add(e));
    thread.start();
    thread.join();

    assertThat(outcomes).containsExactly(2 * CanonicalJson.MAX_DEPTH, IllegalArgumentException.class);
  }

  private static Object nested(int depth) {
    Object value = List.of();
    for (int i = 1; i < depth; i++) {
      value = List.of(value);
    }
    return value;
  }

  // ---- Error messages ----------------------------------------------------------------------

  @Test
  void escapesPointerTokensAsRfc6901Requires() {
    assertThatThrownBy(() -> CanonicalJson.serialize(Map.of("a/b~c", Map.of("", Double.NaN))))
        .hasMessageEndingWith("at JSON pointer \"/a~1b~0c/\"");
  }

  @Test
  void keepsHostileMemberNamesFromForgingLogLines() {
    String forged = "x\nINFO all checks passed \u202e\"";

    assertThatThrownBy(() -> CanonicalJson.serialize(Map.of(forged, new Object())))
        .hasMessageEndingWith(
            "at JSON pointer \"/x\\u000aINFO all checks passed \\u202e\\\"\"")
        .matches(e -> e.getMessage().chars().allMatch(c -> c >= 0x20 && c < 0x7f), "ASCII");
  }

  // ---- bytes and sha256 --------------------------------------------------------------------

  @Test
  void hashesTheUtf8BytesOfTheCanonicalText() {
    Map<String, Object> value = Map.of("b", "\u00e9", "a", 1.0);

    assertThat(CanonicalJson.bytes(value))
        .isEqualTo("{\"a\":1,\"b\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(CanonicalJson.sha256(value)).isEqualTo(Sha256.hex(CanonicalJson.bytes(value)));
    assertThat(CanonicalJson.sha256(Map.of()))
        .isEqualTo("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
    assertThat(CanonicalJson.sha256(Map.of("a", 1L)))
        .isEqualTo("015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862");
  }

  @Test
  void hashesJacksonTreesConvertedToPlainValuesLikeHandBuiltOnes() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    JsonNode tree =
        mapper.readTree(
            "{ \"version\": 1, \"allow\": [ {\"argv0\": \"git\", \"timeoutSeconds\": 30.0} ],"
                + " \"ratio\": 0.25, \"note\": null, \"strict\": true }");
    Map<String, Object> handBuilt =
        new TreeMap<>(
            Map.of(
                "version", 1L,
                "allow", List.of(Map.of("timeoutSeconds", 30, "argv0", "git")),
                "ratio", 0.25,
                "strict", true));
    handBuilt.put("note", null);

    Object converted = mapper.convertValue(tree, Object.class);

    assertThat(CanonicalJson.serialize(converted))
        .isEqualTo(
            "{\"allow\":[{\"argv0\":\"git\",\"timeoutSeconds\":30}],\"note\":null,"
                + "\"ratio\":0.25,\"strict\":true,\"version\":1}");
    assertThat(CanonicalJson.sha256(converted)).isEqualTo(CanonicalJson.sha256(handBuilt));
  }

  @Test
  void hashesEqualValuesOfDifferentJavaTypesAlike() {
    Map<String, Object> ints = Map.of("n", List.of(1, 2L, (short) 3));
    Map<String, Object> doubles = new TreeMap<>(Map.of("n", new double[] {1, 2, 3}));

    assertThat(CanonicalJson.sha256(ints)).isEqualTo(CanonicalJson.sha256(doubles));
  }
}
