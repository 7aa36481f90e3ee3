package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_INVALID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.KeyValueMode;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.api.policy.PolicyExamples;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ToolConfigurationPin;
import dev.capability.kernel.api.policy.ValueKind;
import dev.capability.kernel.api.policy.ValueRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The normal form of a policy: plain maps, lists, strings, numbers and booleans with every
 * default written out and every set sorted, so that one policy has one form however it was
 * written or built. Its RFC 8785 canonical JSON is what the policy hash covers.
 */
public final class PolicyNormalForm {
  private PolicyNormalForm() {}

  /** The format version this kernel reads and writes. */
  public static final int VERSION = 1;

  /** The normal form of {@code policy} as a tree of plain Java values. */
  public static Map<String, Object> tree(ExecutionPolicy policy) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("version", VERSION);
    root.put("timeoutMillis", policy.timeout().toMillis());
    root.put("maxOutputBytes", policy.maxOutputBytes());
    // Written only when not the default, so that every policy without it keeps the hash it always had.
    if (policy.maxFileBytes() != ExecutionPolicy.DEFAULT_MAX_FILE_BYTES) {
      root.put("maxFileBytes", policy.maxFileBytes());
    }
    if (policy.maxWriteBytes() != ExecutionPolicy.DEFAULT_MAX_WRITE_BYTES) {
      root.put("maxWriteBytes", policy.maxWriteBytes());
    }
    root.put("network", jsonName(policy.network()));
    // Written only for filtered network (the only network it applies to), so that every other policy keeps its hash.
    if (policy.network() == NetworkMode.FILTERED) {
      Map<String, Object> egress = new LinkedHashMap<>();
      egress.put("allow", policy.egressAllowed().stream().map(EgressDestination::toString).toList());
      egress.put("allowPrivateAddresses", List.copyOf(policy.egressPrivateAddressNames()));
      root.put("egress", egress);
    }
    root.put("projectWrites", jsonName(policy.projectWrites()));
    root.put("writeScopes", policy.writeScopes());
    root.put("protectedPaths", policy.protectedPaths());
    root.put("neutralizeGit", policy.neutralizeGit());
    root.put("requiredCapabilities", policy.requiredCapabilities().stream().map(Enum::name).sorted().toList());
    // Written only when allowed, so that every policy without it keeps the hash it always had.
    if (policy.allowUnisolatedFallback()) {
      root.put("allowUnisolatedFallback", true);
    }
    root.put("allowRepositoryExecutables", policy.allowRepositoryExecutables());
    // Written only when present, so that every policy without it keeps the hash it always had.
    if (!policy.minimumBackendVersions().isEmpty()) {
      root.put("backendVersions", policy.minimumBackendVersions());
    }
    Map<String, Object> environment = new LinkedHashMap<>();
    environment.put("inherit", List.copyOf(policy.inheritEnvironment()));
    environment.put("set", policy.setEnvironment());
    // Written only when present, so that every policy without it keeps the hash it always had.
    if (!policy.requestEnvironment().isEmpty()) {
      environment.put("request", List.copyOf(policy.requestEnvironment()));
    }
    if (!policy.acceptedDeniedEnvironment().isEmpty()) {
      environment.put("acceptDenied", List.copyOf(policy.acceptedDeniedEnvironment()));
    }
    root.put("environment", environment);
    Map<String, Object> executables = new LinkedHashMap<>();
    policy.executables().forEach(rule -> executables.put(rule.id(), executable(rule)));
    root.put("executables", executables);
    return root;
  }

  /** The normal form of {@code policy} as indented JSON text. */
  public static String json(ExecutionPolicy policy) {
    try {
      return Writer.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(tree(policy));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a policy tree holds only plain values", e);
    }
  }

  /**
   * The writer of {@link #json}, made when first needed: loading a policy hashes its normal form
   * without it, and building an object mapper loads some 300 classes (docs/BENCHMARKS.md).
   */
  private static final class Writer {
    // Escaping non-ASCII keeps invisible and bidirectional characters visible to whoever reads the JSON.
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
  }

  /**
   * Lower-case hex SHA-256 of the canonical JSON of the normal form.
   *
   * @throws PolicyException {@code POLICY_INVALID} when a string cannot be canonicalized
   */
  public static String sha256(ExecutionPolicy policy) {
    try {
      return CanonicalJson.sha256(tree(policy));
    } catch (IllegalArgumentException e) {
      throw new PolicyException(POLICY_INVALID, "the policy cannot be canonicalized: " + e.getMessage(), e);
    }
  }

  /** How a constant of a policy enum is written: lower case, words joined by {@code -}. */
  static String jsonName(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static Map<String, Object> executable(ExecutableRule rule) {
    Map<String, Object> out = new LinkedHashMap<>();
    rule.name().ifPresent(name -> out.put("name", name));
    rule.path().ifPresent(path -> out.put("path", path.toString()));
    rule.sha256().ifPresent(sha256 -> out.put("sha256", sha256));
    out.put("exact", rule.exactArguments());
    rule.arguments().ifPresent(arguments -> out.put("arguments", arguments(arguments)));
    examples(rule.examples(), out);
    Map<String, Object> toolConfiguration = new LinkedHashMap<>();
    rule.toolConfiguration().forEach((file, pin) -> toolConfiguration.put(file, pin(pin)));
    out.put("toolConfiguration", toolConfiguration);
    // Written only when set, so that every policy without it keeps its hash.
    if (rule.acceptsArbitraryCode()) {
      out.put("arbitraryCode", true);
    }
    return out;
  }

  private static String pin(ToolConfigurationPin pin) {
    return switch (pin.expectation()) {
      case RECORDED -> PolicyJsonReader.PIN_RECORDED;
      case ABSENT -> PolicyJsonReader.PIN_ABSENT;
      case SHA256 -> pin.sha256().orElseThrow();
    };
  }

  private static Map<String, Object> arguments(ArgumentRules rules) {
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, Object> flags = new LinkedHashMap<>();
    rules.flags().forEach((name, flag) -> flags.put(name, flag(flag)));
    out.put("flags", flags);
    Map<String, Object> subcommands = new LinkedHashMap<>();
    rules.subcommands().forEach((name, subcommand) -> subcommands.put(name, subcommand(subcommand)));
    out.put("subcommands", subcommands);
    rules.operands().ifPresent(operands -> out.put("operands", operands(operands)));
    out.put("doubleDash", jsonName(rules.doubleDash()));
    // Written only when not the default, so that every policy without them keeps the hash it always had.
    if (rules.syntax() != OptionSyntax.GETOPT) {
      out.put("syntax", jsonName(rules.syntax()));
    }
    if (rules.keyValueOperands() != KeyValueMode.OPERAND) {
      out.put("keyValueOperands", jsonName(rules.keyValueOperands()));
    }
    if (!rules.keyValues().isEmpty()) {
      Map<String, Object> keyValues = new LinkedHashMap<>();
      rules.keyValues().forEach((name, value) -> keyValues.put(name, value(value)));
      out.put("keyValues", keyValues);
    }
    return out;
  }

  private static Map<String, Object> subcommand(SubcommandRule rule) {
    Map<String, Object> out = arguments(rule.arguments());
    examples(rule.examples(), out);
    return out;
  }

  private static Map<String, Object> flag(FlagRule flag) {
    Map<String, Object> out = new LinkedHashMap<>();
    flag.value().ifPresent(value -> out.put("value", value(value)));
    flag.arguments().ifPresent(arguments -> out.put("arguments", arguments(arguments)));
    return out;
  }

  private static Map<String, Object> operands(OperandRule rule) {
    Map<String, Object> out = value(rule.value());
    out.put("minCount", rule.minCount());
    rule.maxCount().ifPresent(max -> out.put("maxCount", max));
    // Written only when present, as "values" is, so that policies without leading rules keep their hashes.
    if (!rule.leading().isEmpty()) {
      out.put("leading", rule.leading().stream().map(PolicyNormalForm::value).toList());
    }
    return out;
  }

  private static Map<String, Object> value(ValueRule rule) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("kind", jsonName(rule.kind()));
    if (!rule.literals().isEmpty()) {
      out.put("values", List.copyOf(rule.literals()));
    }
    rule.min().ifPresent(min -> out.put("min", min));
    rule.max().ifPresent(max -> out.put("max", max));
    if (rule.kind() == ValueKind.PATH) {
      out.put("write", rule.write());
    }
    return out;
  }

  private static void examples(PolicyExamples examples, Map<String, Object> out) {
    out.put("match", examples.match());
    out.put("notMatch", examples.notMatch());
  }
}
