package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_VALUE_INVALID;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.ValueRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every spelling the program accepts is decided as the same rule; no syntax lets a program read what the rule did not check. */
class ArgumentSpellingProperties {

  /** Only one-letter short flags, so that no exact listing can shadow the getopt reading. */
  private static final ArgumentRules GETOPT = ArgumentRules.builder()
      .flag("-l")
      .flag("-a")
      .flag("-1")
      .flag("-n", FlagRule.withValue(ValueRule.integer(0, 100)))
      .flag("-o", FlagRule.withValue(ValueRule.path()))
      .flag("-k", FlagRule.withValue(ValueRule.string()))
      .flag("-b", FlagRule.withValue(ValueRule.literal("a", "t")))
      .operands(OperandRule.any(ValueRule.path()))
      .doubleDash(DoubleDashMode.OPTIONAL)
      .build();

  private static final ExecutionPolicy POLICY = ExecutionPolicy.builder()
      .executable(ExecutableRule.named("tool").arguments(GETOPT).build())
      .executable(ExecutableRule.named("env").arguments(ArgumentSyntaxTest.ENV).build())
      .executable(ExecutableRule.named("find").arguments(ArgumentSyntaxTest.FIND).build())
      .executable(ExecutableRule.named("tar").arguments(ArgumentSyntaxTest.TAR).build())
      .build();

  private static Decision decide(List<String> argv) {
    return new CommandAuthorizer().authorize(POLICY, argv, Optional.empty()).decision();
  }

  private static List<String> argv(String program, List<String> head, List<String> tail) {
    List<String> argv = new ArrayList<>(List.of(program));
    argv.addAll(head);
    argv.addAll(tail);
    return argv;
  }

  @Property(tries = 500)
  void anAttachedValueIsDecidedAsTheSeparateOne(
      @ForAll("valueFlags") String flag, @ForAll("values") String value, @ForAll("tails") List<String> tail) {
    Decision attached = decide(argv("tool", List.of(flag + value), tail));
    Decision separate = decide(argv("tool", List.of(flag, value), tail));

    assertThat(attached.allowed()).as(attached.message() + " / " + separate.message()).isEqualTo(separate.allowed());
    assertThat(attached.code()).isEqualTo(separate.code());
    assertThat(attached.rule()).isEqualTo(separate.rule());
    // The attached value stands in argv[1] with its flag; everything after it one index earlier.
    separate.argIndex().ifPresent(index -> assertThat(attached.argIndex()).hasValue(Math.max(1, index - 1)));
  }

  @Property(tries = 500)
  void aBundleIsDecidedAsItsFlagsOneByOne(@ForAll("letters") List<String> letters, @ForAll("tails") List<String> tail) {
    List<String> separateFlags = letters.stream().map(letter -> "-" + letter).toList();
    Decision bundled = decide(argv("tool", List.of("-" + String.join("", letters)), tail));
    Decision separate = decide(argv("tool", separateFlags, tail));

    assertThat(bundled.allowed()).as(bundled.message() + " / " + separate.message()).isEqualTo(separate.allowed());
    assertThat(bundled.code()).isEqualTo(separate.code());
    assertThat(bundled.rule()).isEqualTo(separate.rule());
  }

  @Property(tries = 500)
  void nothingAfterTheFirstOperandIsReadAsAFlag(@ForAll("envFlags") List<String> flags, @ForAll("envOperands") List<String> operands) {
    List<String> argv = argv("env", flags, operands);
    int firstOperand = flags.size() + 1;

    Decision decision = decide(argv);

    if (!decision.allowed() && decision.argIndex().isPresent() && decision.argIndex().getAsInt() >= firstOperand) {
      assertThat(decision.code()).as(decision.message()).isNotIn(FLAG_NOT_ALLOWED, FLAG_VALUE_INVALID);
    }
  }

  @Property(tries = 1000)
  void findRunsNoUnlistedActionWhereverTheDoubleDashStands(@ForAll("findWords") List<String> words) {
    Decision decision = decide(argv("find", words, List.of()));

    if (decision.allowed()) {
      assertThat(words).doesNotContain("-exec", "-delete", "-ok");
    }
  }

  @Property(tries = 1000)
  void tarNeverStartsTheCompressProgramUnlessListed(@ForAll("tarClusters") String cluster, @ForAll("tarWords") List<String> words) {
    Decision decision = decide(argv("tar", List.of(cluster), words));

    if (decision.allowed()) {
      assertThat(cluster).doesNotContain("I");
      assertThat(words).noneMatch(word -> word.startsWith("-") && !word.startsWith("--") && word.contains("I"));
    }
  }

  @Provide
  Arbitrary<String> valueFlags() {
    return Arbitraries.of("-n", "-o", "-k", "-b");
  }

  @Provide
  Arbitrary<String> values() {
    return Arbitraries.oneOf(
        Arbitraries.of("5", "100", "101", "-3", "007", "a", "t", "x", "src/a", "/etc/passwd", "../x", "-x", "a b", "caf\u00e9", "a=b",
            "l", "la", "\u202e"),
        Arbitraries.strings().withChars("al1nokb-=/.x5 ").ofMinLength(1).ofMaxLength(6).filter(value -> !value.startsWith("=")));
  }

  @Provide
  Arbitrary<List<String>> tails() {
    return Arbitraries.of("a", "-l", "--", "-x", "../b", "-n", "7", "-la").list().ofMaxSize(3);
  }

  @Provide
  Arbitrary<List<String>> letters() {
    return Arbitraries.of("l", "a", "1", "h", "R").list().ofMinSize(2).ofMaxSize(5);
  }

  @Provide
  Arbitrary<List<String>> envFlags() {
    return Arbitraries.of("-i", "-x").list().ofMaxSize(2);
  }

  /** A first operand that does not start with -, then anything. */
  @Provide
  Arbitrary<List<String>> envOperands() {
    return Combinators.combine(
            Arbitraries.of("printenv", "PATH", "sh"),
            Arbitraries.of("printenv", "PATH", "-0", "-i", "--", "-x", "sh").list().ofMaxSize(4))
        .as((first, rest) -> {
          List<String> operands = new ArrayList<>(List.of(first));
          operands.addAll(rest);
          return operands;
        });
  }

  @Provide
  Arbitrary<List<String>> findWords() {
    return Arbitraries.of(".", "src", "--", "-name", "x", "-exec", "-delete", "-ok", "sh", ";", "(", ")", "!", "-L", "-print", "-type", "f")
        .list().ofMaxSize(8);
  }

  @Provide
  Arbitrary<String> tarClusters() {
    return Arbitraries.strings().withChars("tvfxzIC").ofMinLength(1).ofMaxLength(4);
  }

  @Provide
  Arbitrary<List<String>> tarWords() {
    return Arbitraries.of("a.tar", "out", "-I", "sh", "-tI", "-v", "--use-compress-program=sh", "member").list().ofMaxSize(4);
  }
}
