package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class TerminalSafeOutputTest {

  private static String shown(byte[] bytes) throws IOException {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    TerminalSafeOutput output = new TerminalSafeOutput(sink);
    output.write(bytes);
    output.finish();
    return sink.toString(StandardCharsets.UTF_8);
  }

  private static String shown(String text) throws IOException {
    return shown(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void clipboardTitleAndClearScreenSequencesAreShownNotObeyed() throws IOException {
    assertThat(shown("\u001b]52;c;cm0gLXJmIH4=\u0007")).isEqualTo("\\x1b]52;c;cm0gLXJmIH4=\\x07");
    assertThat(shown("\u001b]0;owned\u001b\\")).isEqualTo("\\x1b]0;owned\\x1b\\");
    assertThat(shown("\u001b[2J")).isEqualTo("\\x1b[2J");
  }

  @Test
  void aCarriageReturnThatCouldOverwriteTheLineIsShownButCrLfPasses() throws IOException {
    assertThat(shown("rm -rf ~\rls      \n")).isEqualTo("rm -rf ~\\rls      \n");
    assertThat(shown("windows line\r\n")).isEqualTo("windows line\r\n");
    assertThat(shown("ends with\r")).isEqualTo("ends with\\r");
  }

  @Test
  void c1ControlsAndBidiOverridesAreShownAsCodePoints() throws IOException {
    assertThat(shown("a\u009b2Jb")).isEqualTo("a\\u009b2Jb");
    assertThat(shown("file\u202etxt.exe")).isEqualTo("file\\u202etxt.exe");
    assertThat(shown("\u2066x\u2069")).isEqualTo("\\u2066x\\u2069");
  }

  @Test
  void bytesThatAreNotUtf8AreShownAsBytes() throws IOException {
    assertThat(shown(new byte[] {'a', (byte) 0xff, 'b'})).isEqualTo("a\\xffb");
    // Overlong encoding of ESC, which a lax decoder would turn back into ESC.
    assertThat(shown(new byte[] {(byte) 0xc0, (byte) 0x9b})).isEqualTo("\\xc0\\x9b");
    assertThat(shown(new byte[] {(byte) 0xe0, (byte) 0x80, (byte) 0x9b})).isEqualTo("\\xe0\\x80\\x9b");
    // A sequence cut short by the end of the output.
    assertThat(shown(new byte[] {'x', (byte) 0xe2, (byte) 0x82})).isEqualTo("x\\xe2\\x82");
    // A sequence cut short by an ASCII byte keeps the ASCII byte.
    assertThat(shown(new byte[] {(byte) 0xe2, 'y'})).isEqualTo("\\xe2y");
  }

  @Test
  void ordinaryTextAndUtf8PassUnchanged() throws IOException {
    String text = "naïve café ✓ 𝄞 \t tab\nline two\n{\"json\":\"\\u001b\"}\n\ufffd";
    assertThat(shown(text)).isEqualTo(text);
  }

  @Property(tries = 300)
  void outputNeverHoldsABareControlCharacter(@ForAll @Size(max = 64) byte[] bytes) throws IOException {
    String shown = shown(bytes);
    shown.codePoints().forEach(codePoint -> {
      boolean allowedControl = codePoint == '\n' || codePoint == '\t' || codePoint == '\r';
      assertThat(Character.getType(codePoint) == Character.CONTROL && !allowedControl)
          .as("code point U+%04X in %s", codePoint, shown)
          .isFalse();
    });
    assertThat(shown.replace("\r\n", "")).doesNotContain("\r");
  }

  @Property(tries = 300)
  void splittingTheOutputAnywhereShowsTheSameText(
      @ForAll @Size(max = 48) byte[] bytes, @ForAll @IntRange(min = 0, max = 48) int cut) throws IOException {
    int at = Math.min(cut, bytes.length);
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    TerminalSafeOutput output = new TerminalSafeOutput(sink);
    output.write(bytes, 0, at);
    output.flush();
    output.write(bytes, at, bytes.length - at);
    output.finish();

    assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo(shown(bytes));
  }
}
