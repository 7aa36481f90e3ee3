package dev.capability.kernel.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ValueKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The published JSON Schema describes exactly the members the reader accepts. */
class PolicySchemaTest {

  private static final Path SCHEMA = Path.of("..", "docs", "schemas", "execution-policy.schema.json");

  private static JsonNode schema;

  @BeforeAll
  static void readSchema() throws IOException {
    schema = new ObjectMapper().readTree(SCHEMA.toFile());
  }

  private static Set<String> properties(JsonNode node) {
    Set<String> names = new HashSet<>();
    node.get("properties").fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static JsonNode definition(String name) {
    return schema.get("$defs").get(name);
  }

  @Test
  void describesEveryMemberTheReaderAccepts() {
    assertThat(properties(schema)).isEqualTo(PolicyJsonReader.POLICY_MEMBERS);
    assertThat(properties(schema.get("properties").get("environment"))).isEqualTo(PolicyJsonReader.ENVIRONMENT_MEMBERS);
    assertThat(properties(definition("executable"))).isEqualTo(PolicyJsonReader.EXECUTABLE_MEMBERS);
    assertThat(properties(definition("arguments"))).isEqualTo(PolicyJsonReader.ARGUMENT_MEMBERS);
    assertThat(properties(definition("subcommand"))).isEqualTo(PolicyJsonReader.SUBCOMMAND_MEMBERS);
    assertThat(properties(definition("flag"))).isEqualTo(PolicyJsonReader.FLAG_MEMBERS);
    assertThat(properties(definition("value"))).isEqualTo(PolicyJsonReader.VALUE_MEMBERS);
    assertThat(properties(definition("operands"))).isEqualTo(PolicyJsonReader.OPERAND_MEMBERS);
    assertThat(properties(schema.get("properties").get("egress"))).isEqualTo(PolicyJsonReader.EGRESS_MEMBERS);
  }

  @Test
  void acceptsAnEgressRuleOnlyWithFilteredNetwork() throws IOException {
    JsonSchema validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(SCHEMA));
    ObjectMapper mapper = new ObjectMapper();
    String egress = "\"egress\": {\"allow\": [\"git.test:8080\", \"[::1]:443\"], \"allowPrivateAddresses\": [\"git.test\"]}";

    assertThat(validator.validate(mapper.readTree("{\"version\": 1, \"network\": \"filtered\", " + egress + "}"))).isEmpty();
    assertThat(validator.validate(mapper.readTree("{\"version\": 1, \"network\": \"host\", " + egress + "}"))).isNotEmpty();
    assertThat(validator.validate(mapper.readTree("{\"version\": 1, " + egress + "}"))).isNotEmpty();
    assertThat(validator.validate(mapper.readTree(
        "{\"version\": 1, \"network\": \"filtered\", \"egress\": {\"allow\": [\"git.test\"]}}"))).isNotEmpty();
    assertThat(validator.validate(mapper.readTree(
        "{\"version\": 1, \"network\": \"filtered\", \"egress\": {\"allow\": [], \"deny\": []}}"))).isNotEmpty();
  }

  @Test
  void refusesUnknownMembersEverywhere() {
    for (JsonNode node : new JsonNode[] {schema, schema.get("properties").get("environment"), schema.get("properties").get("egress"),
        definition("executable"),
        definition("arguments"), definition("subcommand"), definition("flag"), definition("value"), definition("operands")}) {
      assertThat(node.get("additionalProperties").asBoolean(true)).isFalse();
    }
  }

  @Test
  void listsEveryValueKindForValuesOperandsAndLeadingOperands() {
    Set<String> kinds = Arrays.stream(ValueKind.values()).map(PolicyNormalForm::jsonName).collect(Collectors.toSet());
    for (String definition : List.of("value", "operands")) {
      Set<String> listed = new HashSet<>();
      definition(definition).get("properties").get("kind").get("enum").forEach(kind -> listed.add(kind.asText()));
      assertThat(listed).as(definition).isEqualTo(kinds);
    }
    assertThat(definition("operands").get("properties").get("leading").get("items").get("$ref").asText()).isEqualTo("#/$defs/value");
  }

  @Test
  void theShippedReadOnlyPolicyAndLeadingRulesValidate() throws IOException {
    JsonSchema validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(SCHEMA));
    ObjectMapper mapper = new ObjectMapper();

    for (String shipped : List.of("readonly-dev.json", "toolchains.json")) {
      assertThat(validator.validate(mapper.readTree(Files.readString(Path.of("..", "examples", "policies", shipped))))).as(shipped)
          .isEmpty();
    }
    assertThat(validator.validate(mapper.readTree(
        "{\"version\": 1, \"executables\": {\"t\": {\"name\": \"t\", \"arguments\": {\"operands\":"
            + " {\"kind\": \"path\", \"leading\": [{\"kind\": \"sed-script\"}, {\"kind\": \"string\"}]}}}}}")))
        .isEmpty();
    for (String operands : List.of(
        "{\"kind\": \"string\", \"min\": 1}", "{\"kind\": \"sed-script\", \"write\": true}",
        "{\"kind\": \"path\", \"leading\": [{\"kind\": \"string\", \"minCount\": 1}]}",
        "{\"kind\": \"path\", \"leading\": [{\"kind\": \"regex\"}]}")) {
      String json = "{\"version\": 1, \"executables\": {\"t\": {\"name\": \"t\", \"arguments\": {\"operands\": " + operands + "}}}}";
      assertThat(validator.validate(mapper.readTree(json))).as(operands).isNotEmpty();
    }
  }

  @Test
  void refusesSyntaxesAndKeyValuesTheReaderRefuses() throws IOException {
    JsonSchema validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(SCHEMA));
    ObjectMapper mapper = new ObjectMapper();
    for (String arguments : List.of(
        "{\"syntax\": \"bsd\"}",
        "{\"keyValueOperands\": \"typed\"}",
        "{\"keyValueOperands\": \"refuse\", \"keyValues\": {\"of\": {\"kind\": \"path\"}}}",
        "{\"keyValueOperands\": \"typed\", \"keyValues\": {\"o-f\": {\"kind\": \"path\"}}}",
        "{\"syntax\": \"find\", \"operands\": {\"kind\": \"path\"}, \"doubleDash\": \"required-before-operands\"}",
        "{\"syntax\": \"tar\", \"subcommands\": {\"x\": {}}}",
        "{\"flags\": {\"-m\": {\"arguments\": {}}}}",
        "{\"syntax\": \"options-first\", \"flags\": {\"-m\": {\"arguments\": {\"match\": []}}}}")) {
      String json = "{\"version\": 1, \"executables\": {\"t\": {\"name\": \"t\", \"arguments\": " + arguments + "}}}";
      assertThat(validator.validate(mapper.readTree(json))).as(arguments).isNotEmpty();
    }
    String accepted = "{\"version\": 1, \"executables\": {\"t\": {\"name\": \"t\", \"arguments\": {\"syntax\": \"options-first\","
        + " \"flags\": {\"-m\": {\"arguments\": {\"syntax\": \"tar\"}}}, \"keyValueOperands\": \"typed\","
        + " \"keyValues\": {\"of\": {\"kind\": \"path\"}}}}}}";
    assertThat(validator.validate(mapper.readTree(accepted))).isEmpty();
  }

  @Test
  void listsEveryIsolationCapability() {
    Set<String> listed = new HashSet<>();
    schema.get("properties").get("requiredCapabilities").get("items").get("enum").forEach(name -> listed.add(name.asText()));

    assertThat(listed).isEqualTo(Arrays.stream(IsolationCapability.values()).map(Enum::name).collect(Collectors.toSet()));
  }

  @Test
  void statesTheDefaultsTheKernelFillsIn() {
    JsonNode defaults = schema.get("properties");
    ExecutionPolicy empty = ExecutionPolicy.builder().build();

    assertThat(defaults.get("timeoutMillis").get("default").asLong()).isEqualTo(empty.timeout().toMillis());
    assertThat(defaults.get("maxOutputBytes").get("default").asLong()).isEqualTo(empty.maxOutputBytes());
    assertThat(defaults.get("timeoutMillis").get("maximum").asLong()).isEqualTo(PolicyValidator.MAX_TIMEOUT.toMillis());
    assertThat(defaults.get("maxOutputBytes").get("maximum").asLong()).isEqualTo(PolicyValidator.MAX_OUTPUT_BYTES);
    assertThat(defaults.get("maxFileBytes").get("default").asLong()).isEqualTo(empty.maxFileBytes());
    assertThat(defaults.get("maxFileBytes").get("maximum").asLong()).isEqualTo(PolicyValidator.MAX_FILE_BYTES);
    assertThat(defaults.get("maxWriteBytes").get("default").asLong()).isEqualTo(empty.maxWriteBytes());
    assertThat(defaults.get("maxWriteBytes").get("maximum").asLong()).isEqualTo(PolicyValidator.MAX_WRITE_BYTES);
    assertThat(defaults.get("network").get("default").asText()).isEqualTo(PolicyNormalForm.jsonName(empty.network()));
    assertThat(defaults.get("projectWrites").get("default").asText()).isEqualTo(PolicyNormalForm.jsonName(empty.projectWrites()));
    List<String> protectedPaths = new ArrayList<>();
    defaults.get("protectedPaths").get("default").forEach(entry -> protectedPaths.add(entry.asText()));
    assertThat(protectedPaths).isEqualTo(empty.protectedPaths());
    assertThat(defaults.get("neutralizeGit").get("default").asBoolean()).isEqualTo(empty.neutralizeGit());
  }

  @Test
  void theNormalFormEscapesEverythingOutsideAscii() {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("cat").exact("a\u202eb", "caf\u00e9").build())
        .build();

    String json = PolicyNormalForm.json(policy);

    assertThat(json).contains("a\\u202Eb", "caf\\u00E9").doesNotContain("\u202e", "\u00e9");
  }
}
