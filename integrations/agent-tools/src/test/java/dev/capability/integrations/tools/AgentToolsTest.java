package dev.capability.integrations.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.ShellSyntaxException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command tools on a real kernel under bwrap, with the repository's real ledger: an allowed
 * command runs in the sandbox, a refused one comes back as a denial the model can read, and bad
 * arguments come back as errors with nothing run and nothing recorded.
 */
class AgentToolsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static BackendGate bwrap;

  @TempDir Path base;
  private TestRepository repo;
  private AgentTools tools;

  @BeforeAll
  static void open() {
    bwrap = TestRepository.bwrap();
  }

  @AfterAll
  static void close() {
    bwrap.close();
  }

  @BeforeEach
  void setUp() throws IOException {
    repo = TestRepository.create(base);
    tools = AgentTools.builder(repo.kernel(bwrap), repo.repository).build();
  }

  private JsonNode call(String tool, String arguments) throws IOException {
    return JSON.readTree(tools.named(tool).orElseThrow().execute(arguments));
  }

  @Test
  void withoutARuntimeOrWorkPlansOnlyTheCommandToolsAreOfferedEachWithAnObjectSchema() throws IOException {
    assertThat(tools.all()).extracting(AgentTool::name).containsExactly(AgentTools.RUN_COMMAND, AgentTools.CHECK_COMMAND);
    for (AgentTool tool : tools.all()) {
      JsonNode schema = JSON.readTree(tool.inputSchema());
      assertThat(schema.get("type").asText()).isEqualTo("object");
      assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
      assertThat(schema.get("properties").has("argv")).isTrue();
      assertThat(tool.description()).isNotBlank();
    }
  }

  @Test
  void anAllowedCommandRunsUnderBwrapAndReturnsItsOutputAndAttestation() throws IOException {
    JsonNode result = call("run_command", "{\"argv\": [\"cat\", \"a.txt\"]}");

    assertThat(result.get("status").asText()).as(result.toString()).isEqualTo("COMPLETED");
    assertThat(result.get("exitCode").asInt()).isZero();
    assertThat(result.at("/stdout/text").asText()).isEqualTo("alpha\n");
    assertThat(result.at("/attestation/backend/id").asText()).as(result.toString()).isEqualTo("bwrap");
    assertThat(repo.ledgerFile()).as("the run is recorded").isPresent();
  }

  @Test
  void aRefusedCommandIsADenialNamingLayerRuleCodeAndReasonAndDoesNotRun() throws IOException {
    JsonNode result = call("run_command", "{\"argv\": [\"rm\", \"a.txt\"]}");

    assertThat(result.get("status").asText()).as(result.toString()).isEqualTo("DENIED");
    assertThat(result.get("layer").asText()).isEqualTo("operator");
    assertThat(result.get("code").asText()).isNotBlank();
    assertThat(result.has("rule")).isTrue();
    assertThat(result.get("reason").asText()).contains("rm");
    assertThat(result.has("error")).isFalse();
    assertThat(repo.repository.resolve("a.txt")).exists();
  }

  @Test
  void checkCommandSaysWhyAndRunsNothing() throws IOException {
    JsonNode allowed = call("check_command", "{\"command\": \"cat README.md\"}");
    JsonNode refused = call("check_command", "{\"argv\": [\"sh\", \"-c\", \"rm a.txt\"]}");

    assertThat(allowed.get("status").asText()).as(allowed.toString()).isEqualTo("ALLOWED");
    assertThat(allowed.get("argv")).hasSize(2);
    assertThat(refused.get("status").asText()).isEqualTo("DENIED");
    assertThat(refused.get("layer").asText()).isEqualTo("operator");
    assertThat(repo.repository.resolve("a.txt")).exists();
  }

  @Test
  void aShellCommandStringIsAnErrorNamingTheConstructAndNothingRuns() throws IOException {
    JsonNode result = call("run_command", "{\"command\": \"cat a.txt; rm a.txt\"}");

    assertThat(result.at("/error/code").asText()).isEqualTo(ShellSyntaxException.CODE);
    assertThat(result.at("/error/construct").asText()).isNotBlank();
    assertThat(repo.ledgerFile()).isEmpty();
    assertThat(repo.repository.resolve("a.txt")).exists();
  }

  @Test
  void argvThatIsNotAStringListIsAnErrorAndNothingRunsOrIsRecorded() throws IOException {
    for (String arguments : new String[] {
        "{\"argv\": [\"cat\", 1]}", "{\"argv\": \"cat a.txt\"}", "{\"argv\": []}", "{\"argv\": [\"cat\", [\"a.txt\"]]}",
        "{\"argv\": {\"0\": \"cat\"}}", "{\"argv\": [\"cat\", null]}"}) {
      JsonNode result = call("run_command", arguments);
      assertThat(result.at("/error/code").asText()).as(arguments).isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
      assertThat(result.at("/error/message").asText()).as(arguments).contains("argv");
    }
    assertThat(repo.ledgerFile()).as("nothing was recorded").isEmpty();
  }

  @Test
  void malformedArgumentsAreErrorsNamingWhatIsWrong() throws IOException {
    assertThat(call("run_command", "not json").at("/error/code").asText()).isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
    assertThat(call("run_command", "[\"cat\", \"a.txt\"]").at("/error/message").asText()).contains("JSON object");
    assertThat(call("run_command", "{\"argv\": [\"cat\", \"a.txt\"], \"policy\": \"allow-all\"}").at("/error/message").asText())
        .contains("unknown argument 'policy'");
    assertThat(call("run_command", "{\"argv\": [\"cat\"], \"argv\": [\"rm\", \"a.txt\"]}").at("/error/code").asText())
        .as("a duplicate name is refused, not resolved")
        .isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
    assertThat(call("run_command", "{\"argv\": [\"cat\", \"a.txt\"], \"command\": \"cat a.txt\"}").at("/error/message").asText())
        .contains("either argv or command");
    assertThat(call("run_command", "{}").at("/error/message").asText()).contains("either argv or command");
    assertThat(call("run_command", null).at("/error/code").asText()).isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
    assertThat(repo.ledgerFile()).isEmpty();
  }

  @Test
  void hugeArgumentsAndTooManyWordsAreRefusedBeforeTheyAreRead() throws IOException {
    String huge = "{\"argv\": [\"echo\", \"" + "x".repeat(AgentTools.MAX_ARGUMENTS_BYTES) + "\"]}";
    StringBuilder many = new StringBuilder("{\"argv\": [\"echo\"");
    for (int i = 0; i < AgentTools.MAX_ARGV; i++) {
      many.append(", \"w\"");
    }
    many.append("]}");

    JsonNode tooBig = call("run_command", huge);
    JsonNode tooMany = call("run_command", many.toString());

    assertThat(tooBig.at("/error/code").asText()).isEqualTo(AgentToolCodes.ARGUMENTS_TOO_LARGE);
    assertThat(tooBig.at("/error/message").asText()).contains(String.valueOf(AgentTools.MAX_ARGUMENTS_BYTES));
    assertThat(tooMany.at("/error/code").asText()).isEqualTo(AgentToolCodes.ARGUMENTS_TOO_LARGE);
    assertThat(tooMany.at("/error/message").asText()).contains("argv");
    assertThat(repo.ledgerFile()).isEmpty();
  }

  @Test
  void theBuilderRefusesAMissingRepository() {
    assertThatThrownBy(() -> AgentTools.builder(repo.kernel(bwrap), base.resolve("missing")).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("missing");
  }

  @Test
  void nothingOutsideTheRepositoryIsReadable() throws IOException {
    Path secret = Files.writeString(base.resolve("secret.txt"), "secret\n");

    JsonNode result = call("run_command", "{\"argv\": [\"cat\", \"" + secret + "\"]}");

    assertThat(result.toString()).doesNotContain("secret\\n");
    assertThat(result.get("status").asText()).isNotEqualTo("COMPLETED");
  }
}
