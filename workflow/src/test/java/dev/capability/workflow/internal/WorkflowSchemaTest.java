package dev.capability.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.workflow.EvidenceCategory;
import dev.capability.workflow.WorkflowException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The published contract and work-plan schemas describe the members the readers accept, and agree with them on whole documents. */
class WorkflowSchemaTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static JsonNode contractTree;
  private static JsonNode planTree;
  private static JsonSchema contractSchema;
  private static JsonSchema planSchema;

  @BeforeAll
  static void readSchemas() throws IOException {
    String contract = Files.readString(Path.of("..", "docs", "schemas", "project-contract.schema.json"));
    String plan = Files.readString(Path.of("..", "docs", "schemas", "work-plan.schema.json"));
    contractTree = MAPPER.readTree(contract);
    planTree = MAPPER.readTree(plan);
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    contractSchema = factory.getSchema(contract);
    planSchema = factory.getSchema(plan);
  }

  private static Set<String> names(JsonNode properties) {
    Set<String> names = new HashSet<>();
    properties.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void describeExactlyTheMembersTheReadersAccept() {
    assertThat(names(contractTree.get("properties"))).isEqualTo(ContractJson.MEMBERS);
    assertThat(names(contractTree.at("/properties/critic/properties"))).isEqualTo(ContractJson.CRITIC_MEMBERS);
    assertThat(names(contractTree.at("/properties/evidence/properties")))
        .isEqualTo(new HashSet<>(Arrays.stream(EvidenceCategory.values()).map(EvidenceCategory::jsonName).toList()));
    assertThat(names(planTree.get("properties"))).isEqualTo(PlanJson.MEMBERS);
    assertThat(names(planTree.at("/$defs/phase/properties"))).isEqualTo(PlanJson.PHASE_MEMBERS);
    assertThat(planTree.at("/properties/phases/maxItems").asInt()).isEqualTo(PlanJson.MAX_PHASES);
    for (JsonNode object : new JsonNode[] {contractTree, contractTree.at("/properties/critic"), contractTree.at("/properties/evidence"),
        planTree, planTree.at("/$defs/phase")}) {
      assertThat(object.get("additionalProperties").asBoolean(true)).isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"version\": 1, \"writeScopes\": [\"src/**\"]}",
      "{\"version\": 1, \"description\": \"d\", \"writeScopes\": [\"src/**\", \"target/**\"], \"protectedPaths\": [\"src/main/resources/keys\"],"
          + " \"executables\": [\"mvn\"], \"network\": \"none\", \"evidence\": {\"test\": [\"./mvnw -q test\"], \"lint\": []},"
          + " \"critic\": {\"command\": \"review --json\", \"blocking\": true}, \"assurance\": \"high\"}",
  })
  void contractsTheReaderAcceptsValidateAndSoDoesTheirNormalForm(String json) throws IOException {
    assertThat(contractSchema.validate(MAPPER.readTree(json))).isEmpty();
    assertThat(contractSchema.validate(MAPPER.valueToTree(ContractJson.toMap(ContractJson.read(json))))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"writeScopes\": [\"src/**\"]}",
      "{\"version\": 2, \"writeScopes\": [\"src/**\"]}",
      "{\"version\": 1}",
      "{\"version\": 1, \"writeScopes\": []}",
      "{\"version\": 1, \"writeScopes\": [\"src/**\"], \"extra\": 1}",
      "{\"version\": 1, \"writeScopes\": [\"src/**\"], \"assurance\": \"paranoid\"}",
      "{\"version\": 1, \"writeScopes\": [\"src/**\"], \"critic\": {\"command\": \"x\"}}",
      "{\"version\": 1, \"writeScopes\": [\"src/**\"], \"evidence\": {\"style\": []}}",
      "{\"version\": 1, \"writeScopes\": [\"src/**\", \"src/**\"]}",
  })
  void contractsTheSchemaRefusesTheReaderRefusesToo(String json) throws IOException {
    assertThat(contractSchema.validate(MAPPER.readTree(json))).isNotEmpty();
    assertThat(catchThrowable(() -> ContractJson.read(json))).isInstanceOf(WorkflowException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"mvn test\"]}]}",
      "{\"version\": 1, \"id\": \"p.2\", \"title\": \"t\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"],"
          + " \"deliverables\": [\"x\"], \"verificationKind\": \"non-code\", \"acceptance\": [\"mvn test\"], \"selectiveTests\": [\"mvn -Dtest=A test\"],"
          + " \"fullSuite\": \"mvn verify\"}, {\"id\": \"b\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"mvn test\"],"
          + " \"dependsOn\": [\"a\"]}]}",
  })
  void plansTheReaderAcceptsValidateAndSoDoesTheirNormalForm(String json) throws IOException {
    assertThat(planSchema.validate(MAPPER.readTree(json))).isEmpty();
    assertThat(planSchema.validate(MAPPER.valueToTree(PlanJson.toMap(PlanJson.read(json))))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"version\": 1, \"id\": \"p\", \"phases\": []}",
      "{\"version\": 1, \"id\": \"-p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"mvn test\"]}]}",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": []}]}",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"mvn test\"]}]}",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"acceptance\": [\"mvn test\"]}]}",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"mvn test\"], \"x\": 1}]}",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"mvn test\"],"
          + " \"verificationKind\": \"docs\"}]}",
      "{\"version\": \"1\", \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"mvn test\"]}]}",
  })
  void plansTheSchemaRefusesTheReaderRefusesToo(String json) throws IOException {
    assertThat(planSchema.validate(MAPPER.readTree(json))).isNotEmpty();
    assertThat(catchThrowable(() -> PlanJson.read(json))).isInstanceOf(WorkflowException.class);
  }
}
