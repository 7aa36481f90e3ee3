package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_VERSION_UNSUPPORTED;
import static dev.capability.kernel.core.internal.policy.JsonFields.construct;
import static dev.capability.kernel.core.internal.policy.JsonFields.invalid;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.KeyValueMode;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.api.policy.PolicyExamples;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ToolConfigurationPin;
import dev.capability.kernel.api.policy.ValueKind;
import dev.capability.kernel.api.policy.ValueRule;
import java.math.BigInteger;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads policy JSON into an {@link ExecutionPolicy}, strictly: duplicate keys, comments,
 * trailing tokens, unknown members and coerced types are all refused, each with a line and
 * column (syntax) or a JSON pointer (structure). Semantic checks are {@link PolicyValidator}'s.
 */
public final class PolicyJsonReader {
  private PolicyJsonReader() {}

  static final Set<String> POLICY_MEMBERS = Set.of(
      "version", "timeoutMillis", "maxOutputBytes", "maxFileBytes", "maxWriteBytes", "network", "projectWrites", "writeScopes", "protectedPaths",
      "neutralizeGit", "requiredCapabilities", "allowUnisolatedFallback", "allowRepositoryExecutables", "environment",
      "executables", "backendVersions", "egress");
  static final Set<String> EGRESS_MEMBERS = Set.of("allow", "allowPrivateAddresses");
  static final Set<String> ENVIRONMENT_MEMBERS = Set.of("inherit", "set", "request", "acceptDenied");
  static final Set<String> EXECUTABLE_MEMBERS = Set.of("name", "path", "sha256", "exact", "arguments", "match", "notMatch", "toolConfiguration",
      "arbitraryCode");
  static final Set<String> ARGUMENT_MEMBERS = Set.of(
      "flags", "subcommands", "operands", "doubleDash", "syntax", "keyValueOperands", "keyValues");
  static final Set<String> SUBCOMMAND_MEMBERS = Set.of(
      "flags", "subcommands", "operands", "doubleDash", "syntax", "keyValueOperands", "keyValues", "match", "notMatch");
  static final Set<String> FLAG_MEMBERS = Set.of("value", "arguments");
  static final Set<String> VALUE_MEMBERS = Set.of("kind", "values", "min", "max", "write");
  static final Set<String> OPERAND_MEMBERS = Set.of("kind", "values", "min", "max", "write", "minCount", "maxCount", "leading");

  /** How a tool configuration pin that only records the file's hash is written. */
  static final String PIN_RECORDED = "recorded";
  /** How a tool configuration pin that requires the file to be absent is written. */
  static final String PIN_ABSENT = "absent";

  /**
   * Reads {@code json}.
   *
   * @throws PolicyException {@code POLICY_INVALID}, or {@code POLICY_VERSION_UNSUPPORTED} for a
   *     version other than 1
   */
  public static ExecutionPolicy read(String json) {
    JsonFields root = new JsonFields(parse(json), "");
    requireVersion(root);
    root.allowOnly(POLICY_MEMBERS);
    ExecutionPolicy.Builder policy = ExecutionPolicy.builder();
    // Ranges are the validator's, so a file and code get the same message for the same value.
    root.integer("timeoutMillis", Long.MIN_VALUE, Long.MAX_VALUE).ifPresent(millis -> policy.timeout(Duration.ofMillis(millis)));
    root.integer("maxOutputBytes", Long.MIN_VALUE, Long.MAX_VALUE).ifPresent(policy::maxOutputBytes);
    root.integer("maxFileBytes", Long.MIN_VALUE, Long.MAX_VALUE).ifPresent(policy::maxFileBytes);
    root.integer("maxWriteBytes", Long.MIN_VALUE, Long.MAX_VALUE).ifPresent(policy::maxWriteBytes);
    root.get("network").ifPresent(node -> policy.network(constant(NetworkMode.class, node, root.pointer("network"))));
    root.object("egress").ifPresent(egress -> readEgress(egress, root, policy));
    root.get("projectWrites")
        .ifPresent(node -> policy.projectWrites(constant(ProjectWriteMode.class, node, root.pointer("projectWrites"))));
    root.texts("writeScopes").ifPresent(policy::writeScopes);
    root.texts("protectedPaths").ifPresent(policy::protectedPaths);
    root.bool("neutralizeGit").ifPresent(policy::neutralizeGit);
    root.textSet("requiredCapabilities").ifPresent(names -> names.forEach(
        name -> policy.require(capability(name, root.pointer("requiredCapabilities")))));
    root.bool("allowUnisolatedFallback").ifPresent(policy::allowUnisolatedFallback);
    root.bool("allowRepositoryExecutables").ifPresent(policy::allowRepositoryExecutables);
    root.object("backendVersions").ifPresent(versions -> readBackendVersions(versions, policy));
    root.object("environment").ifPresent(environment -> readEnvironment(environment, policy));
    root.object("executables").ifPresent(executables -> {
      for (Map.Entry<String, JsonTree> member : executables.members()) {
        String pointer = executables.pointer(member.getKey());
        policy.executable(executable(member.getKey(), new JsonFields(member.getValue(), pointer)));
      }
    });
    return policy.build();
  }

  private static JsonTree parse(String json) {
    try {
      return JsonTree.parse(json).orElseThrow(() -> new PolicyException(POLICY_INVALID, "the policy is empty"));
    } catch (JsonTree.SyntaxException e) {
      throw new PolicyException(POLICY_INVALID, "the policy is not valid JSON" + e.where() + ": " + e.getMessage(), e);
    }
  }

  private static void requireVersion(JsonFields root) {
    JsonTree version = root.get("version").orElseThrow(() -> invalid("/version", "the policy needs \"version\": 1"));
    if (!version.isInteger()) {
      throw invalid("/version", "the version must be the integer 1");
    }
    if (!version.integer().equals(BigInteger.valueOf(PolicyNormalForm.VERSION))) {
      throw new PolicyException(POLICY_VERSION_UNSUPPORTED,
          "policy format version " + version.integer() + " is not supported; this kernel reads version " + PolicyNormalForm.VERSION);
    }
  }

  private static void readEnvironment(JsonFields environment, ExecutionPolicy.Builder policy) {
    environment.allowOnly(ENVIRONMENT_MEMBERS);
    environment.textSet("inherit").ifPresent(names -> policy.inheritEnvironment(names.toArray(String[]::new)));
    environment.textSet("request").ifPresent(names -> policy.requestEnvironment(names.toArray(String[]::new)));
    environment.textSet("acceptDenied").ifPresent(names -> policy.acceptDeniedEnvironment(names.toArray(String[]::new)));
    environment.object("set").ifPresent(set -> {
      for (Map.Entry<String, JsonTree> member : set.members()) {
        policy.setEnvironment(member.getKey(), JsonFields.text(member.getValue(), set.pointer(member.getKey())));
      }
    });
  }

  /**
   * {@code "egress": {"allow": ["host:port", "[::1]:443"], "allowPrivateAddresses": ["git.test"]}}:
   * the destinations of filtered network, and the allowed hosts the operator lets resolve to
   * loopback or private addresses. Meaningful only with {@code "network": "filtered"}.
   */
  private static void readEgress(JsonFields egress, JsonFields root, ExecutionPolicy.Builder policy) {
    egress.allowOnly(EGRESS_MEMBERS);
    boolean filtered = root.get("network")
        .map(node -> constant(NetworkMode.class, node, root.pointer("network")) == NetworkMode.FILTERED)
        .orElse(false);
    if (!filtered) {
      throw invalid(egress.pointer(), "an egress rule applies only to \"network\": \"filtered\"");
    }
    List<String> texts = egress.texts("allow")
        .orElseThrow(() -> invalid(egress.pointer("allow"), "an egress rule lists the destinations it allows, as host:port"));
    Set<EgressDestination> allowed = new LinkedHashSet<>();
    for (int i = 0; i < texts.size(); i++) {
      String pointer = JsonPointers.element(egress.pointer("allow"), i);
      EgressDestination destination;
      try {
        destination = EgressDestination.parse(texts.get(i));
      } catch (IllegalArgumentException e) {
        throw invalid(pointer, e.getMessage());
      }
      if (!allowed.add(destination)) {
        throw invalid(pointer, Printable.quote(texts.get(i)) + " is listed twice");
      }
    }
    List<String> names = egress.texts("allowPrivateAddresses").orElse(List.of());
    Set<String> privateNames = new LinkedHashSet<>();
    for (int i = 0; i < names.size(); i++) {
      String pointer = JsonPointers.element(egress.pointer("allowPrivateAddresses"), i);
      String name = names.get(i).toLowerCase(Locale.ROOT);
      if (allowed.stream().noneMatch(destination -> destination.host().equals(name))) {
        throw invalid(pointer, Printable.quote(names.get(i)) + " is not the host of a destination in /egress/allow");
      }
      if (!privateNames.add(name)) {
        throw invalid(pointer, Printable.quote(names.get(i)) + " is listed twice");
      }
    }
    policy.egressAllowed(List.copyOf(allowed));
    policy.egressPrivateAddressNames(privateNames);
  }

  /** {@code "backendVersions": {"docker": {"daemon": "20.10"}}}: the least version per backend and component. */
  private static void readBackendVersions(JsonFields versions, ExecutionPolicy.Builder policy) {
    for (Map.Entry<String, JsonTree> backend : versions.members()) {
      JsonFields components = new JsonFields(backend.getValue(), versions.pointer(backend.getKey()));
      for (Map.Entry<String, JsonTree> component : components.members()) {
        String pointer = components.pointer(component.getKey());
        try {
          policy.minimumBackendVersion(backend.getKey(), component.getKey(), JsonFields.text(component.getValue(), pointer));
        } catch (IllegalArgumentException e) {
          throw JsonFields.invalid(pointer, e.getMessage());
        }
      }
    }
  }

  private static ExecutableRule executable(String id, JsonFields rule) {
    rule.allowOnly(EXECUTABLE_MEMBERS);
    Optional<String> name = rule.text("name");
    Optional<Path> path = rule.text("path").map(text -> executablePath(text, rule.pointer("path")));
    Optional<String> sha256 = rule.text("sha256");
    List<List<String>> exact = rule.textLists("exact").orElse(List.of());
    Optional<ArgumentRules> arguments = rule.object("arguments").map(fields -> arguments(fields.allowOnly(ARGUMENT_MEMBERS)));
    PolicyExamples examples = examples(rule);
    Map<String, ToolConfigurationPin> toolConfiguration = new LinkedHashMap<>();
    rule.object("toolConfiguration").ifPresent(files -> files.members().forEach(member -> toolConfiguration.put(
        member.getKey(), pin(JsonFields.text(member.getValue(), files.pointer(member.getKey()))))));
    boolean arbitraryCode = rule.bool("arbitraryCode").orElse(false);
    return construct(rule.pointer(),
        () -> new ExecutableRule(id, name, path, sha256, exact, arguments, examples, toolConfiguration, arbitraryCode));
  }

  private static ToolConfigurationPin pin(String text) {
    return switch (text) {
      case PIN_RECORDED -> ToolConfigurationPin.recorded();
      case PIN_ABSENT -> ToolConfigurationPin.absent();
      default -> ToolConfigurationPin.sha256(text);
    };
  }

  private static Path executablePath(String text, String pointer) {
    try {
      Path path = Path.of(text);
      if (!path.toString().equals(text)) {
        throw invalid(pointer, Printable.quote(text) + " is not written in canonical form (" + path + ")");
      }
      return path;
    } catch (InvalidPathException e) {
      throw invalid(pointer, Printable.quote(text) + " is not a path: " + e.getReason());
    }
  }

  private static ArgumentRules arguments(JsonFields rules) {
    Map<String, FlagRule> flags = new LinkedHashMap<>();
    rules.object("flags").ifPresent(fields -> fields.members().forEach(
        member -> flags.put(member.getKey(), flag(new JsonFields(member.getValue(), fields.pointer(member.getKey()))))));
    Map<String, SubcommandRule> subcommands = new LinkedHashMap<>();
    rules.object("subcommands").ifPresent(fields -> fields.members().forEach(
        member -> subcommands.put(member.getKey(), subcommand(new JsonFields(member.getValue(), fields.pointer(member.getKey()))))));
    Optional<OperandRule> operands = rules.object("operands").map(PolicyJsonReader::operands);
    DoubleDashMode doubleDash = rules.get("doubleDash")
        .map(node -> constant(DoubleDashMode.class, node, rules.pointer("doubleDash")))
        .orElse(DoubleDashMode.FORBIDDEN);
    OptionSyntax syntax = rules.get("syntax")
        .map(node -> constant(OptionSyntax.class, node, rules.pointer("syntax")))
        .orElse(OptionSyntax.GETOPT);
    KeyValueMode keyValueOperands = rules.get("keyValueOperands")
        .map(node -> constant(KeyValueMode.class, node, rules.pointer("keyValueOperands")))
        .orElse(KeyValueMode.OPERAND);
    Map<String, ValueRule> keyValues = new LinkedHashMap<>();
    rules.object("keyValues").ifPresent(fields -> fields.members().forEach(member -> keyValues.put(
        member.getKey(), value(new JsonFields(member.getValue(), fields.pointer(member.getKey())).allowOnly(VALUE_MEMBERS)))));
    return construct(rules.pointer(),
        () -> new ArgumentRules(flags, subcommands, operands, doubleDash, syntax, keyValueOperands, keyValues));
  }

  private static SubcommandRule subcommand(JsonFields rule) {
    rule.allowOnly(SUBCOMMAND_MEMBERS);
    return new SubcommandRule(arguments(rule), examples(rule));
  }

  private static FlagRule flag(JsonFields flag) {
    flag.allowOnly(FLAG_MEMBERS);
    return new FlagRule(
        flag.object("value").map(value -> value(value.allowOnly(VALUE_MEMBERS))),
        flag.object("arguments").map(arguments -> arguments(arguments.allowOnly(ARGUMENT_MEMBERS))));
  }

  private static OperandRule operands(JsonFields operands) {
    operands.allowOnly(OPERAND_MEMBERS);
    ValueRule value = value(operands);
    int minCount = operands.integer("minCount", 0, Integer.MAX_VALUE).orElse(0L).intValue();
    OptionalInt maxCount = operands.integer("maxCount", 0, Integer.MAX_VALUE)
        .map(max -> OptionalInt.of(max.intValue()))
        .orElse(OptionalInt.empty());
    List<ValueRule> leading = new ArrayList<>();
    operands.objects("leading").ifPresent(rules -> rules.forEach(rule -> leading.add(value(rule.allowOnly(VALUE_MEMBERS)))));
    return construct(operands.pointer(), () -> new OperandRule(value, minCount, maxCount, leading));
  }

  private static ValueRule value(JsonFields value) {
    ValueKind kind = constant(ValueKind.class,
        value.get("kind").orElseThrow(() -> invalid(value.pointer("kind"), "a value rule needs a kind")), value.pointer("kind"));
    Set<String> literals = value.textSet("values").orElse(Set.of());
    OptionalLong min = value.integer("min", Long.MIN_VALUE, Long.MAX_VALUE).map(OptionalLong::of).orElse(OptionalLong.empty());
    OptionalLong max = value.integer("max", Long.MIN_VALUE, Long.MAX_VALUE).map(OptionalLong::of).orElse(OptionalLong.empty());
    boolean write = value.bool("write").orElse(false);
    return construct(value.pointer(), () -> new ValueRule(kind, literals, min, max, write));
  }

  private static PolicyExamples examples(JsonFields rule) {
    return new PolicyExamples(rule.textLists("match").orElse(List.of()), rule.textLists("notMatch").orElse(List.of()));
  }

  private static IsolationCapability capability(String name, String pointer) {
    try {
      return IsolationCapability.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw invalid(pointer, Printable.quote(name) + " is not an isolation capability; known: "
          + Arrays.toString(IsolationCapability.values()));
    }
  }

  private static <E extends Enum<E>> E constant(Class<E> type, JsonTree node, String pointer) {
    String text = JsonFields.text(node, pointer);
    for (E constant : type.getEnumConstants()) {
      if (PolicyNormalForm.jsonName(constant).equals(text)) {
        return constant;
      }
    }
    throw invalid(pointer, Printable.quote(text) + " is not one of "
        + Arrays.stream(type.getEnumConstants()).map(PolicyNormalForm::jsonName).toList());
  }
}
