package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@link Console#quote} writes the literal Jackson writes, for every character, without loading Jackson. */
class ConsoleQuoteTest {
  private static final ObjectMapper JACKSON = new ObjectMapper();

  @Test
  void everyCharacterIsQuotedAsJacksonQuotesIt() throws Exception {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < Character.MIN_SURROGATE; c++) {
      all.append(c);
      String one = String.valueOf(c);
      assertThat(Console.quote(one)).as("U+%04X", (int) c).isEqualTo(JACKSON.writeValueAsString(one));
    }
    for (char c = (char) (Character.MAX_SURROGATE + 1); c != 0; c++) {
      all.append(c);
    }
    all.appendCodePoint(0x1F600).append("a\"b\\c\td\u0001");
    assertThat(Console.quote(all.toString())).isEqualTo(JACKSON.writeValueAsString(all.toString()));
  }
}
