package dev.capability.kernel.core.internal.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.ShellSyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of the parser that need no shell: totality and quoting round trips. */
class CommandParserProperties {

  @Property(tries = 2000)
  void eitherSplitsIntoANamedCommandOrRefuses(@ForAll("anyText") ShellInput input) {
    try {
      List<String> argv = CommandParser.split(input.text());
      assertThat(argv).as("argv for %s", input).isNotEmpty();
      assertThat(argv.get(0)).as("command name for %s", input).isNotEmpty();
    } catch (ShellSyntaxException refusal) {
      assertThat(refusal.offset()).isBetween(0, input.text().length());
    }
  }

  @Property(tries = 500)
  void singleQuotedWordsComeBackUnchanged(@ForAll("quotableWords") List<String> words) {
    String line = "cmd " + words.stream().map(word -> "'" + word + "'")
        .collect(Collectors.joining(" "));
    assertThat(CommandParser.split(line)).isEqualTo(withCommand(words));
  }

  @Property(tries = 500)
  void doubleQuotedWordsWithEscapesComeBackUnchanged(@ForAll("quotableWords") List<String> words) {
    String line = "cmd " + words.stream().map(CommandParserProperties::doubleQuoted)
        .collect(Collectors.joining("\t"));
    assertThat(CommandParser.split(line)).isEqualTo(withCommand(words));
  }

  @Property(tries = 500)
  void backslashEscapedWordsComeBackUnchanged(@ForAll("escapableWords") List<String> words) {
    String line = "cmd " + words.stream().map(CommandParserProperties::escaped)
        .collect(Collectors.joining(" "));
    assertThat(CommandParser.split(line)).isEqualTo(withCommand(words));
  }

  /** Re-quoting an accepted argv word by word gives a line that parses to the same argv. */
  @Property(tries = 2000)
  void requotingAnAcceptedArgvKeepsIt(@ForAll("generatedLines") ShellInput input) {
    List<String> argv;
    try {
      argv = CommandParser.split(input.text());
    } catch (ShellSyntaxException refused) {
      return;
    }
    // History expansion ignores single quotes, so '!' and a '^' starting a line are escaped.
    String requoted = argv.stream()
        .map(word -> "'" + word.replace("'", "'\\''").replace("!", "'\\!'")
            .replace("\n^", "\n'\\^'") + "'")
        .collect(Collectors.joining(" "));
    assertThat(CommandParser.split(requoted)).as("requoted %s", input).isEqualTo(argv);
  }

  @Provide
  Arbitrary<ShellInput> anyText() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(30).map(ShellInput::new),
        ShellInputs.tokenSoup());
  }

  @Provide
  Arbitrary<ShellInput> generatedLines() {
    return Arbitraries.oneOf(ShellInputs.quotedWords(), ShellInputs.firstWords());
  }

  /**
   * Words of characters that are literal inside single and double quotes: no single quote, nothing
   * refused, and no history characters, which interactive bash can expand even inside quotes.
   */
  @Provide
  Arbitrary<List<String>> quotableWords() {
    return Arbitraries.strings()
        .withCharRange(' ', '~')
        .withChars('\t', '\n', '\u00e9', '\uff1b', '\u4e00')
        .excludeChars('\'', '!', '^')
        .ofMaxLength(12)
        .list().ofMaxSize(8);
  }

  /** Words without a newline, which no backslash can make literal outside quotes. */
  @Provide
  Arbitrary<List<String>> escapableWords() {
    return Arbitraries.strings()
        .withCharRange(' ', '~')
        .withChars('\t', '\u00e9', '\uff1b')
        .ofMinLength(1)
        .ofMaxLength(12)
        .list().ofMaxSize(8);
  }

  private static String doubleQuoted(String word) {
    StringBuilder quoted = new StringBuilder("\"");
    for (char c : word.toCharArray()) {
      if (c == '$' || c == '`' || c == '"' || c == '\\') {
        quoted.append('\\');
      }
      quoted.append(c);
    }
    return quoted.append('"').toString();
  }

  private static String escaped(String word) {
    StringBuilder escaped = new StringBuilder();
    for (char c : word.toCharArray()) {
      escaped.append('\\').append(c);
    }
    return escaped.toString();
  }

  private static List<String> withCommand(List<String> words) {
    List<String> argv = new ArrayList<>();
    argv.add("cmd");
    argv.addAll(words);
    return argv;
  }
}
