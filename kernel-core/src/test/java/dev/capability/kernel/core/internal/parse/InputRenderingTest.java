package dev.capability.kernel.core.internal.parse;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class InputRenderingTest {

  @Test
  void keepsPrintableAsciiAndDoublesBackslashes() {
    assertThat(InputRendering.escape("ls -la 'a b' \"c\" ~ \\n"))
        .isEqualTo("ls -la 'a b' \"c\" ~ \\\\n");
  }

  @Test
  void escapesControlAndNonAsciiCharactersAsUtf16Units() {
    assertThat(InputRendering.escape("a\u0000\t\n\u007f\u00e9\u200b\ud83d\ude00"))
        .isEqualTo("a\\u0000\\u0009\\u000A\\u007F\\u00E9\\u200B\\uD83D\\uDE00");
  }

  @Test
  void distinguishesAnEscapedBackslashFromAnEscapedCharacter() {
    assertThat(InputRendering.escape("\\u0000")).isNotEqualTo(InputRendering.escape("\u0000"));
  }

  @Test
  void describesCharactersForMessages() {
    assertThat(InputRendering.describeCharacterAt("a|b", 1)).isEqualTo("'|'");
    assertThat(InputRendering.describeCharacterAt("a\u00a0", 1)).isEqualTo("U+00A0");
    assertThat(InputRendering.describeCharacterAt("\udb40\udc41", 0)).isEqualTo("U+E0041");
    assertThat(InputRendering.describeCharacterAt("\ud800", 0)).isEqualTo("U+D800");
    assertThat(InputRendering.describeCharacterAt("a", 1)).isEqualTo("end of input");
  }

  @Property(tries = 1000)
  void renderingIsPrintableAsciiAndReversible(@ForAll("anyText") String text) {
    String escaped = InputRendering.escape(text);
    assertThat(escaped.chars()).allMatch(c -> c >= 0x20 && c <= 0x7E);
    assertThat(unescape(escaped)).isEqualTo(text);
  }

  @Provide
  Arbitrary<String> anyText() {
    return Arbitraries.strings().all().ofMaxLength(40);
  }

  private static String unescape(String escaped) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c != '\\') {
        text.append(c);
      } else if (escaped.charAt(i + 1) == '\\') {
        text.append('\\');
        i++;
      } else {
        text.append((char) Integer.parseInt(escaped.substring(i + 2, i + 6), 16));
        i += 5;
      }
    }
    return text.toString();
  }
}
