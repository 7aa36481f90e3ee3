package dev.capability.kernel.api.json.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictJsonParserTest {
  @Test
  void readsEveryKindOfValueWithNumbersExactlyAsWritten() {
    Object value = StrictJsonParser.parse(
        " {\"a\":[1,-0.5,2E+3,1e-7,0],\"s\":\"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\",\"t\":true,\"f\":false,\"n\":null} ", 4);

    Map<?, ?> object = (Map<?, ?>) value;
    assertThat(object.get("a"))
        .isEqualTo(List.of(new BigDecimal("1"), new BigDecimal("-0.5"), new BigDecimal("2E+3"), new BigDecimal("1e-7"), new BigDecimal("0")));
    assertThat(object.get("s")).isEqualTo("q\"\\/\b\f\n\r\t\u00e9\ud83d\ude00");
    assertThat(object.get("t")).isEqualTo(true);
    assertThat(object.get("f")).isEqualTo(false);
    assertThat(object.containsKey("n")).isTrue();
    assertThat(object.get("n")).isNull();
  }

  @Test
  void keepsMemberOrderAndRefusesDuplicateNames() {
    assertThat(List.copyOf(((Map<?, ?>) StrictJsonParser.parse("{\"b\":1,\"a\":2}", 1)).keySet())).isEqualTo(List.of("b", "a"));
    assertRefused("{\"a\":1,\"a\":2}", "duplicate member name \"a\"");
  }

  @Test
  void refusesWhatRfc8259DoesNotAllow() {
    assertRefused("", "the text ends where a value was expected");
    assertRefused("01", "content after the JSON value");
    assertRefused("1.", "a digit after the decimal point was expected");
    assertRefused("1e", "a digit in the exponent was expected");
    assertRefused("-", "a digit was expected");
    assertRefused("+1", "unexpected character");
    assertRefused("NaN", "unexpected character");
    assertRefused("tru", "true was expected");
    assertRefused("\"a\tb\"", "a control character must be escaped");
    assertRefused("\"\\x\"", "unknown escape");
    assertRefused("\"\\u12zz\"", "a \\u escape needs four hex digits");
    assertRefused("\"\\u12\"", "the text ends inside a \\u escape");
    assertRefused("\"abc", "the text ends inside a string");
    assertRefused("[1,]", "unexpected character");
    assertRefused("{\"a\" 1}", "':' was expected");
    assertRefused("{'a':1}", "a member name was expected");
    assertRefused("[1] // comment", "content after the JSON value");
    assertRefused("1e99999999999", "out of range");
  }

  @Test
  void refusesNestingDeeperThanItsLimit() {
    assertThat(StrictJsonParser.parse("[[[]]]", 3)).isEqualTo(List.of(List.of(List.of())));
    assertRefused("[[[[]]]]", "nest deeper than 3 levels");
  }

  private static void assertRefused(String text, String message) {
    assertThatThrownBy(() -> StrictJsonParser.parse(text, 3))
        .as(text)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }
}
