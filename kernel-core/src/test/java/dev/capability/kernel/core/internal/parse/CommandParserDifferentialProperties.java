package dev.capability.kernel.core.internal.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.kernel.api.ShellSyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;
import net.jqwik.api.statistics.StatisticsReport.StatisticsReportMode;

/**
 * Real bash decides what an accepted command line means: for every generated input the parser
 * accepts, its argv must equal the argv bash produces for the same text, both as a script does it
 * and with an interactive shell's history expansion switched on. Inputs are compared in
 * batches, one bash run per batch; batch properties skip jqwik's edge cases, which would be
 * batches of one repeated input. Samples and failures are shown escaped.
 */
class CommandParserDifferentialProperties {
  private static final int BATCH = 40;
  private static final Set<String> CONSTRUCTS = Arrays.stream(Construct.values())
      .map(Construct::code)
      .collect(Collectors.toUnmodifiableSet());

  private static BashOracle bash;

  @BeforeContainer
  static void startOracle() {
    bash = new BashOracle();
  }

  @AfterContainer
  static void removeOracleFiles() {
    bash.close();
  }

  @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
  @StatisticsReport(StatisticsReportMode.OFF)
  void acceptedQuotedWordsSplitExactlyAsBashSplitsArguments(
      @ForAll("quotedWordBatches") List<ShellInput> batch) {
    int accepted = assertAcceptedMatchBashArguments(batch);
    Statistics.label("batch has accepted inputs").collect(accepted > 0)
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 90));
  }

  @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
  @StatisticsReport(StatisticsReportMode.OFF)
  void acceptedTokenSoupSplitsExactlyAsBashSplitsArguments(
      @ForAll("tokenSoupBatches") List<ShellInput> batch) {
    int accepted = assertAcceptedMatchBashArguments(batch);
    Statistics.label("batch has accepted inputs").collect(accepted > 0)
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 50));
  }

  /**
   * Braces, tildes and lone brackets are accepted exactly where bash leaves them literal
   * ({@code find -exec ... {} +}, {@code git diff @{u}}, {@code --format=%h:~}, {@code a]}); an
   * accepted one must come back from bash unchanged, so any expansion bash made is a failure.
   */
  @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
  @StatisticsReport(StatisticsReportMode.OFF)
  void acceptedBracesTildesAndBracketsAreLeftLiteralByBash(
      @ForAll("braceTildeBracketBatches") List<ShellInput> batch) {
    int accepted = assertAcceptedMatchBashArguments(batch);
    Statistics.label("batch has accepted inputs").collect(accepted > 0)
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 50));
  }

  /**
   * An accepted {@code !} in any quoting context must be one that bash with history expansion
   * switched on leaves alone; and a {@code !} inside single quotes on the first line, with no
   * double quote, backslash or newline before it, must be accepted, since no bash expands it.
   */
  @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
  @StatisticsReport(StatisticsReportMode.OFF)
  void acceptedExclamationsInEveryQuotingContextAreLeftAloneByHistoryExpansion(
      @ForAll("exclamationBatches") List<ShellInput> batch) {
    assertAcceptedMatchBashArguments(batch);
    for (ShellInput input : batch) {
      if (hasOnlyPlainlySingleQuotedExclamations(input.text())) {
        assertThat(acceptedOrNull(input)).as("argv for %s", input).isNotNull();
      }
    }
    boolean acceptedSingleQuotedExclamation = batch.stream()
        .anyMatch(input -> acceptedOrNull(input) != null && input.text().contains("'!"));
    Statistics.label("batch accepts a single-quoted !").collect(acceptedSingleQuotedExclamation)
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 50));
  }

  /**
   * Whether {@code text} has no double quote, backslash, newline, {@code $} or {@code ^} at all,
   * all its single quotes are closed and each {@code !} is inside them.
   */
  private static boolean hasOnlyPlainlySingleQuotedExclamations(String text) {
    boolean inSingleQuotes = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\' || c == '\n' || c == '$' || c == '^') {
        return false;
      }
      if (c == '\'') {
        inSingleQuotes = !inSingleQuotes;
      } else if (c == '!' && !inSingleQuotes) {
        return false;
      }
    }
    return !inSingleQuotes;
  }

  /**
   * Reserved words and assignments matter only in command position, which {@code printf '%s\0'}
   * takes away; here each input is a command of its own and bash's command lookup reports the
   * argv, so a first word bash would read as syntax or an assignment prints nothing and fails.
   */
  @Property(tries = 40, edgeCases = EdgeCasesMode.NONE)
  @StatisticsReport(StatisticsReportMode.OFF)
  void acceptedFirstWordsReachCommandLookupWithTheSameArgv(
      @ForAll("firstWordBatches") List<ShellInput> batch) {
    List<ShellInput> compared = new ArrayList<>();
    List<List<String>> expected = new ArrayList<>();
    for (ShellInput input : batch) {
      List<String> argv = acceptedOrNull(input);
      if (argv != null && bash.reachesCommandLookup(argv.get(0))) {
        compared.add(input);
        expected.add(argv);
      }
    }
    assertMatches(compared, expected, bash.commandsOf(texts(compared)));
    Statistics.label("batch has accepted inputs").collect(!compared.isEmpty())
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 50));
  }

  /**
   * Every refusal names a documented construct and points at text a shell would interpret as
   * that construct; it may be stricter than bash, never vaguer.
   */
  @Property(tries = 3000)
  void everyRefusalPointsAtTheConstructItNames(@ForAll("tokenSoup") ShellInput input) {
    String text = input.text();
    try {
      CommandParser.split(text);
    } catch (ShellSyntaxException refusal) {
      assertThat(refusal.code()).isEqualTo(ShellSyntaxException.CODE);
      assertThat(refusal.construct()).as("construct for %s", input).isIn(CONSTRUCTS);
      assertThat(refusal.escapedInput()).isEqualTo(InputRendering.escape(text));
      assertThat(refusal.offset()).as("offset for %s", input).isBetween(0, text.length());
      assertThat(RefusalShapes.matches(refusal.construct(), text, refusal.offset()))
          .as("%s at %d does not look like %s", input, refusal.offset(), refusal.construct())
          .isTrue();
    }
  }

  /** The accepted examples of the hand-written tests, confirmed against bash too. */
  @Example
  void handWrittenAcceptedExamplesMatchBash() {
    List<ShellInput> inputs = CommandParserTest.ACCEPTED_EXAMPLES.stream()
        .map(ShellInput::new)
        .toList();
    assertThat(assertAcceptedMatchBashArguments(inputs)).isEqualTo(inputs.size());
    List<ShellInput> commands = inputs.stream()
        .filter(input -> bash.reachesCommandLookup(CommandParser.split(input.text()).get(0)))
        .toList();
    assertMatches(commands,
        commands.stream().map(input -> CommandParser.split(input.text())).toList(),
        bash.commandsOf(texts(commands)));
  }

  @Provide
  Arbitrary<List<ShellInput>> quotedWordBatches() {
    return ShellInputs.quotedWords().list().ofSize(BATCH);
  }

  @Provide
  Arbitrary<List<ShellInput>> tokenSoupBatches() {
    return ShellInputs.tokenSoup().list().ofSize(BATCH);
  }

  @Provide
  Arbitrary<List<ShellInput>> exclamationBatches() {
    return ShellInputs.exclamationsInEveryQuotingContext().list().ofSize(BATCH);
  }

  @Provide
  Arbitrary<List<ShellInput>> braceTildeBracketBatches() {
    return ShellInputs.bracesTildesAndBrackets().list().ofSize(BATCH);
  }

  @Provide
  Arbitrary<List<ShellInput>> firstWordBatches() {
    return ShellInputs.firstWords().list().ofSize(BATCH);
  }

  @Provide
  Arbitrary<ShellInput> tokenSoup() {
    return Arbitraries.oneOf(ShellInputs.tokenSoup(), ShellInputs.firstWords(),
        ShellInputs.exclamationsInEveryQuotingContext(), ShellInputs.bracesTildesAndBrackets());
  }

  private static int assertAcceptedMatchBashArguments(List<ShellInput> batch) {
    List<ShellInput> compared = new ArrayList<>();
    List<List<String>> expected = new ArrayList<>();
    for (ShellInput input : batch) {
      List<String> argv = acceptedOrNull(input);
      if (argv != null) {
        compared.add(input);
        expected.add(argv);
      }
    }
    assertMatches(compared, expected, bash.argumentsOf(texts(compared)));
    assertMatches(compared, expected, bash.argumentsWithHistoryExpansionOf(texts(compared)));
    return compared.size();
  }

  private static List<String> acceptedOrNull(ShellInput input) {
    try {
      return CommandParser.split(input.text());
    } catch (ShellSyntaxException refused) {
      return null;
    }
  }

  /** Compares escaped renderings, so a failure shows every character visibly. */
  private static void assertMatches(
      List<ShellInput> inputs, List<List<String>> parsed, List<BashOracle.Outcome> outcomes) {
    assertThat(outcomes).hasSameSizeAs(inputs);
    for (int i = 0; i < inputs.size(); i++) {
      BashOracle.Outcome outcome = outcomes.get(i);
      if (!outcome.succeeded()) {
        fail("parser accepted %s as %s but bash gave no argv: %s",
            inputs.get(i), escaped(parsed.get(i)), outcome.failure());
      }
      assertThat(escaped(parsed.get(i)))
          .as("argv for %s (parser, then bash)", inputs.get(i))
          .isEqualTo(escaped(outcome.argv()));
    }
  }

  private static List<String> escaped(List<String> argv) {
    return argv.stream().map(InputRendering::escape).toList();
  }

  private static List<String> texts(List<ShellInput> inputs) {
    return inputs.stream().map(ShellInput::text).toList();
  }
}
