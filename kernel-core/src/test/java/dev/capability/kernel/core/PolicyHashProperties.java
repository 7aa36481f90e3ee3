package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.KeyValueMode;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ToolConfigurationPin;
import dev.capability.kernel.api.policy.ValueRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The policy hash identifies a policy: not its spelling, and nothing less than all of it. */
class PolicyHashProperties {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Property(tries = 300)
  void parsingTheNormalFormGivesBackAnEqualPolicy(@ForAll("policies") ExecutionPolicy policy) {
    LoadedPolicy fromCode = ExecutionPolicies.of(policy);
    LoadedPolicy reparsed = ExecutionPolicies.parse(ExecutionPolicies.toJson(policy), "file");

    assertThat(reparsed.policy()).isEqualTo(policy);
    assertThat(reparsed.hash()).isEqualTo(fromCode.hash());
    assertThat(ExecutionPolicies.toJson(reparsed.policy())).isEqualTo(ExecutionPolicies.toJson(policy));
  }

  @Property(tries = 300)
  void theHashIgnoresKeyOrderAndWhitespace(@ForAll("policies") ExecutionPolicy policy, @ForAll long seed)
      throws JsonProcessingException {
    Object tree = MAPPER.readValue(ExecutionPolicies.toJson(policy), Object.class);
    StringBuilder respelled = new StringBuilder();
    respell(tree, new Random(seed), respelled);

    LoadedPolicy parsed = ExecutionPolicies.parse(respelled.toString(), "respelled");

    assertThat(parsed.hash()).isEqualTo(ExecutionPolicies.of(policy).hash());
    assertThat(parsed.policy()).isEqualTo(policy);
  }

  @Property(tries = 300)
  void anyChangeToARuleChangesTheHash(@ForAll("policies") ExecutionPolicy policy, @ForAll Mutation mutation, @ForAll int pick) {
    ExecutionPolicy changed = mutation.apply(policy, Math.floorMod(pick, Math.max(1, policy.executables().size())));

    assertThat(changed).isNotEqualTo(policy);
    assertThat(ExecutionPolicies.of(changed).hash()).isNotEqualTo(ExecutionPolicies.of(policy).hash());
  }

  /** One small change to a policy, each still a valid policy. */
  enum Mutation {
    ADD_EXACT_ARGUMENTS, ADD_FLAG, ADD_LEADING_OPERAND, SWITCH_SYNTAX, PIN_OR_REPIN, ADD_NOT_MATCH_EXAMPLE, NAME_TOOL_CONFIGURATION, REMOVE_RULE, LENGTHEN_TIMEOUT,
    ADD_CAPABILITY, INHERIT_MORE, PROTECT_MORE, TOGGLE_GIT_NEUTRALIZATION;

    ExecutionPolicy apply(ExecutionPolicy policy, int index) {
      if (policy.executables().isEmpty() && ordinal() <= REMOVE_RULE.ordinal()) {
        return policy.toBuilder().executable(ExecutableRule.named("added").exact().build()).build();
      }
      return switch (this) {
        case ADD_EXACT_ARGUMENTS -> changeRule(policy, index, rule -> rule.toBuilder().exact("--mutated").build());
        case ADD_FLAG -> changeRule(policy, index, rule -> rule.toBuilder()
            .arguments(rule.arguments().map(ArgumentRules::toBuilder).orElse(ArgumentRules.builder()).flag("--mutated").build())
            .build());
        case ADD_LEADING_OPERAND -> changeRule(policy, index, rule -> rule.toBuilder()
            .arguments(withLeadingSedScript(rule.arguments()))
            .build());
        case SWITCH_SYNTAX -> changeRule(policy, index, rule -> rule.toBuilder()
            .arguments(rule.arguments().map(ArgumentRules::toBuilder).orElse(ArgumentRules.builder())
                .syntax(rule.arguments().filter(a -> a.syntax() == OptionSyntax.GETOPT).isPresent() ? OptionSyntax.OPTIONS_FIRST : OptionSyntax.GETOPT)
                .build())
            .build());
        case PIN_OR_REPIN -> changeRule(policy, index, rule -> rule.toBuilder()
            .sha256((rule.sha256().filter(s -> s.startsWith("ab")).isPresent() ? "cd" : "ab").repeat(32))
            .build());
        case ADD_NOT_MATCH_EXAMPLE -> changeRule(policy, index, rule -> rule.toBuilder()
            .notMatch(argv0(rule), "--never-listed")
            .build());
        case NAME_TOOL_CONFIGURATION -> changeRule(policy, index, rule -> rule.toBuilder()
            .toolConfiguration("mutated/" + rule.toolConfiguration().size() + ".config", ToolConfigurationPin.absent())
            .build());
        case REMOVE_RULE -> policy.toBuilder().removeExecutable(policy.executables().get(index).id()).build();
        case LENGTHEN_TIMEOUT -> policy.toBuilder().timeout(policy.timeout().compareTo(Duration.ofHours(1)) < 0
            ? policy.timeout().plusMillis(1) : policy.timeout().minusMillis(1)).build();
        case ADD_CAPABILITY -> policy.toBuilder().require(Arrays.stream(IsolationCapability.values())
            .filter(capability -> !policy.requiredCapabilities().contains(capability))
            .findFirst()
            .orElseThrow()).build();
        case INHERIT_MORE -> policy.toBuilder().inheritEnvironment("MUTATED_NAME").build();
        case PROTECT_MORE -> policy.toBuilder().protectedPaths(
            Stream.concat(policy.protectedPaths().stream(), Stream.of("mutated/**")).toList()).build();
        case TOGGLE_GIT_NEUTRALIZATION -> policy.toBuilder().neutralizeGit(!policy.neutralizeGit()).build();
      };
    }

    /** The rules with one more leading operand rule; rules with subcommands are replaced, as they take no operands. */
    private static ArgumentRules withLeadingSedScript(Optional<ArgumentRules> arguments) {
      ArgumentRules rules = arguments.filter(a -> a.subcommands().isEmpty()).orElse(ArgumentRules.builder().build());
      OperandRule operands = rules.operands().orElse(OperandRule.any(ValueRule.path()));
      List<ValueRule> leading = new ArrayList<>(operands.leading());
      leading.add(ValueRule.sedScript());
      return rules.toBuilder().operands(new OperandRule(operands.value(), operands.minCount(), OptionalInt.empty(), leading)).build();
    }

    private static ExecutionPolicy changeRule(ExecutionPolicy policy, int index, UnaryOperator<ExecutableRule> change) {
      ExecutableRule rule = policy.executables().get(index);
      return policy.toBuilder().removeExecutable(rule.id()).executable(change.apply(rule)).build();
    }
  }

  private static String argv0(ExecutableRule rule) {
    return rule.name().orElseGet(() -> rule.path().orElseThrow().toString());
  }

  /** Writes {@code value} as JSON with shuffled keys and random whitespace between tokens. */
  private static void respell(Object value, Random random, StringBuilder out) throws JsonProcessingException {
    if (value instanceof Map<?, ?> map) {
      List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
      Collections.shuffle(entries, random);
      out.append('{');
      for (int i = 0; i < entries.size(); i++) {
        whitespace(random, out);
        out.append(MAPPER.writeValueAsString(entries.get(i).getKey()));
        whitespace(random, out);
        out.append(':');
        whitespace(random, out);
        respell(entries.get(i).getValue(), random, out);
        whitespace(random, out);
        out.append(i + 1 < entries.size() ? "," : "");
      }
      whitespace(random, out);
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        whitespace(random, out);
        respell(list.get(i), random, out);
        whitespace(random, out);
        out.append(i + 1 < list.size() ? "," : "");
      }
      out.append(']');
    } else {
      out.append(MAPPER.writeValueAsString(value));
    }
  }

  private static void whitespace(Random random, StringBuilder out) {
    String[] choices = {"", "", " ", "\n", "\t", "\r\n", "   "};
    out.append(choices[random.nextInt(choices.length)]);
  }

  @Provide
  Arbitrary<ExecutionPolicy> policies() {
    Arbitrary<ExecutionPolicy.Builder> limits = Combinators.combine(
            Arbitraries.longs().between(1, 86_400_000L),
            Arbitraries.longs().between(1, 1L << 30),
            Arbitraries.of(NetworkMode.class),
            Arbitraries.of("target/**", "build/*.log", "out", "docs/?/x").list().uniqueElements().ofMaxSize(3),
            Arbitraries.of(IsolationCapability.class).set().ofMaxSize(4),
            Arbitraries.of(true, false))
        .as((millis, bytes, network, scopes, capabilities, repositoryExecutables) -> ExecutionPolicy.builder()
            .timeout(Duration.ofMillis(millis))
            .maxOutputBytes(bytes)
            .network(network)
            .projectWrites(scopes.isEmpty() ? ProjectWriteMode.READ_ONLY : ProjectWriteMode.SCOPED)
            .writeScopes(scopes)
            .require(capabilities.toArray(IsolationCapability[]::new))
            .allowRepositoryExecutables(repositoryExecutables));
    Arbitrary<Set<String>> inherit = Arbitraries.of("PATH", "LANG", "HOME", "TZ", "TERM").set().ofMaxSize(3);
    Arbitrary<Map<String, String>> set = Arbitraries.maps(
        Arbitraries.of("CI", "LC_ALL", "GIT_AUTHOR_NAME"), Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(8)).ofMaxSize(2);
    Arbitrary<List<ExecutableRule>> rules = executableRules().list().ofMaxSize(3).uniqueElements(ExecutableRule::id);
    return Combinators.combine(limits, inherit, set, rules).as((builder, inherited, fixed, executables) -> {
      builder.inheritEnvironment(inherited.toArray(String[]::new));
      fixed.forEach(builder::setEnvironment);
      executables.forEach(builder::executable);
      return builder.build();
    });
  }

  private Arbitrary<ExecutableRule> executableRules() {
    Arbitrary<List<List<String>>> exact = Arbitraries.of("-l", "-a", "x", "--check").list().ofMaxSize(3).list().ofMaxSize(2);
    return Combinators.combine(
            Arbitraries.of("ls", "cat", "git", "make", "tool"),
            Arbitraries.of(true, false),
            Arbitraries.of("0123456789abcdef".repeat(4)).optional(),
            exact,
            argumentRules(0).optional())
        .as((id, byName, sha256, exactLists, arguments) -> {
          ExecutableRule.Builder rule = byName ? ExecutableRule.named(id) : ExecutableRule.atPath(id, Path.of("/opt/bin/" + id));
          sha256.ifPresent(rule::sha256);
          List<List<String>> lists = exactLists.isEmpty() && arguments.isEmpty() ? List.of(List.of()) : exactLists;
          lists.forEach(list -> rule.exact(list.toArray(String[]::new)));
          arguments.ifPresent(rule::arguments);
          String argv0 = byName ? id : "/opt/bin/" + id;
          if (!lists.isEmpty()) {
            List<String> match = new ArrayList<>(List.of(argv0));
            match.addAll(lists.get(0));
            rule.match(match.toArray(String[]::new));
          }
          rule.notMatch(argv0, "--definitely-not-listed");
          return rule.build();
        });
  }

  private Arbitrary<ArgumentRules> argumentRules(int depth) {
    Arbitrary<FlagRule> flag = Arbitraries.oneOf(
        Arbitraries.just(FlagRule.plain()),
        Arbitraries.just(FlagRule.withValue(ValueRule.path())),
        Arbitraries.longs().between(-5, 5).map(min -> FlagRule.withValue(ValueRule.integer(min, min + 10))),
        Arbitraries.of("a", "b", "c").set().ofMinSize(1).map(values -> FlagRule.withValue(ValueRule.literal(values))));
    Arbitrary<Map<String, FlagRule>> flags = Arbitraries.maps(Arbitraries.of("-v", "-q", "--all", "--depth"), flag).ofMaxSize(3);
    Arbitrary<Map<String, SubcommandRule>> subcommands = depth >= 1
        ? Arbitraries.just(Map.of())
        : Arbitraries.maps(Arbitraries.of("status", "diff", "log"), argumentRules(depth + 1).map(SubcommandRule::of)).ofMaxSize(2);
    Arbitrary<ValueRule> values = Arbitraries.of(
        ValueRule.path(), ValueRule.integer(0, 100), ValueRule.literal("HEAD", "main"), ValueRule.string(), ValueRule.sedScript());
    Arbitrary<Optional<OperandRule>> operands = Combinators.combine(
            values,
            Arbitraries.integers().between(0, 2),
            Arbitraries.integers().between(0, 3).optional(),
            values.list().ofMaxSize(2))
        // A maxCount of 0 allows no operand, which validation refuses (POLICY_RULE_NEVER_ALLOWS).
        .as((value, min, extra, leading) -> new OperandRule(value, min,
            extra.map(e -> OptionalInt.of(Math.max(Math.max(1, min + e), leading.size()))).orElse(OptionalInt.empty()), leading))
        .optional();
    return Combinators.combine(flags, subcommands, operands, Arbitraries.of(DoubleDashMode.class), Arbitraries.of(OptionSyntax.class),
            Arbitraries.of(KeyValueMode.class))
        .as((flagRules, subcommandRules, operandRule, doubleDash, syntax, keyValueMode) -> {
          boolean takesOperands = subcommandRules.isEmpty() && operandRule.isPresent();
          // find lists only its own primaries; a level with subcommands reads getopt or options-first and takes no key=value operands.
          OptionSyntax readAs = syntax == OptionSyntax.FIND || !subcommandRules.isEmpty() && syntax == OptionSyntax.TAR
              ? OptionSyntax.OPTIONS_FIRST : syntax;
          KeyValueMode keyValues = subcommandRules.isEmpty() ? keyValueMode : KeyValueMode.OPERAND;
          return new ArgumentRules(new LinkedHashMap<>(flagRules), subcommandRules,
              takesOperands ? operandRule : Optional.empty(), takesOperands ? doubleDash : DoubleDashMode.FORBIDDEN, readAs, keyValues,
              keyValues == KeyValueMode.TYPED ? Map.of("of", ValueRule.path(), "count", ValueRule.integer(0, 9)) : Map.of());
        });
  }
}
