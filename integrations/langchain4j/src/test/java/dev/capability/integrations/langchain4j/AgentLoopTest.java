package dev.capability.integrations.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.tck.BackendGate;
import dev.capability.integrations.tools.AgentToolCodes;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.integrations.tools.TestRepository;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.service.AiServices;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An AiServices agent on a scripted model calls the kernel's tools: an allowed command runs under
 * bwrap, a refused one comes back to the model as a denial naming the layer and code, bad
 * arguments come back as an error with nothing run, and the loop goes on to the final answer.
 */
class AgentLoopTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static BackendGate bwrap;

  /** The agent's interface: one message in, the final answer out. */
  interface Assistant {
    String chat(String message);
  }

  @TempDir Path base;
  private TestRepository repo;

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
  }

  private static AiMessage call(String id, String tool, String arguments) {
    return AiMessage.from(ToolExecutionRequest.builder().id(id).name(tool).arguments(arguments).build());
  }

  private Assistant assistant(ScriptedChatModel model) {
    AgentTools tools = AgentTools.builder(repo.kernel(bwrap), repo.repository).build();
    return AiServices.builder(Assistant.class)
        .chatModel(model)
        .tools(LangChain4jTools.of(tools))
        .hallucinatedToolNameStrategy(LangChain4jTools.unknownTool(tools))
        .build();
  }

  private static ToolExecutionResultMessage lastToolResult(List<ChatMessage> messages) {
    ChatMessage last = messages.get(messages.size() - 1);
    assertThat(last).isInstanceOf(ToolExecutionResultMessage.class);
    return (ToolExecutionResultMessage) last;
  }

  @Test
  void theAgentRunsAnAllowedCommandIsToldWhyARefusedOneWasDeniedAndGoesOnToItsAnswer() throws IOException {
    ScriptedChatModel model = new ScriptedChatModel(
        call("1", "run_command", "{\"argv\": [\"cat\", \"a.txt\"]}"),
        call("2", "run_command", "{\"argv\": [\"rm\", \"a.txt\"]}"),
        call("3", "run_command", "{\"argv\": [\"cat\", 7]}"),
        AiMessage.from("a.txt says alpha; I may not delete it."));

    String answer = assistant(model).chat("Read a.txt, then delete it.");

    assertThat(answer).isEqualTo("a.txt says alpha; I may not delete it.");
    assertThat(model.requests).hasSize(4);

    ToolExecutionResultMessage ran = lastToolResult(model.requests.get(1).messages());
    JsonNode run = JSON.readTree(ran.text());
    assertThat(run.get("status").asText()).as(ran.text()).isEqualTo("COMPLETED");
    assertThat(run.at("/stdout/text").asText()).isEqualTo("alpha\n");
    assertThat(run.at("/attestation/backend/id").asText()).isEqualTo("bwrap");

    ToolExecutionResultMessage denied = lastToolResult(model.requests.get(2).messages());
    JsonNode denial = JSON.readTree(denied.text());
    assertThat(denial.get("status").asText()).as(denied.text()).isEqualTo("DENIED");
    assertThat(denial.get("layer").asText()).isEqualTo("operator");
    assertThat(denial.get("code").asText()).isNotBlank();
    assertThat(denied.text()).contains("\"layer\":\"operator\"").contains("\"code\":\"" + denial.get("code").asText() + "\"");
    assertThat(denied.isError()).as("a denial is an answer, not a failed call").isNotEqualTo(Boolean.TRUE);

    ToolExecutionResultMessage refused = lastToolResult(model.requests.get(3).messages());
    assertThat(JSON.readTree(refused.text()).at("/error/code").asText()).isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
    assertThat(refused.isError()).isTrue();

    assertThat(repo.repository.resolve("a.txt")).hasContent("alpha");
  }

  @Test
  void theModelIsShownEachToolWithItsArgumentSchema() {
    ScriptedChatModel model = new ScriptedChatModel(AiMessage.from("nothing to do"));

    assistant(model).chat("hello");

    List<ToolSpecification> tools = model.requests.get(0).toolSpecifications();
    assertThat(tools).extracting(ToolSpecification::name).containsExactly("run_command", "check_command");
    ToolSpecification run = tools.get(0);
    assertThat(run.description()).contains("sandbox");
    assertThat(run.parameters().properties().get("argv")).isInstanceOfSatisfying(JsonArraySchema.class,
        argv -> assertThat(argv.items()).isInstanceOf(JsonStringSchema.class));
    assertThat(run.parameters().additionalProperties()).isFalse();
  }

  @Test
  void aHugeArgumentIsAnErrorTheModelReadsAndNothingIsRecorded() throws IOException {
    String huge = "{\"argv\": [\"echo\", \"" + "x".repeat(AgentTools.MAX_ARGUMENTS_BYTES) + "\"]}";
    ScriptedChatModel model = new ScriptedChatModel(call("1", "run_command", huge), AiMessage.from("too big"));

    assertThat(assistant(model).chat("echo a lot")).isEqualTo("too big");

    ToolExecutionResultMessage result = lastToolResult(model.requests.get(1).messages());
    assertThat(JSON.readTree(result.text()).at("/error/code").asText()).isEqualTo(AgentToolCodes.ARGUMENTS_TOO_LARGE);
    assertThat(repo.ledgerFile()).as("nothing ran, nothing was recorded").isEmpty();
  }

  @Test
  void aToolThatIsNotOfferedIsAnErrorListingTheToolsAndTheLoopGoesOn() throws IOException {
    ScriptedChatModel model = new ScriptedChatModel(
        call("1", "set_policy", "{\"policy\": \"allow everything\"}"), AiMessage.from("I cannot change the policy."));

    assertThat(assistant(model).chat("allow everything")).isEqualTo("I cannot change the policy.");

    ToolExecutionResultMessage result = lastToolResult(model.requests.get(1).messages());
    JsonNode error = JSON.readTree(result.text());
    assertThat(error.at("/error/code").asText()).isEqualTo(AgentToolCodes.UNKNOWN_TOOL);
    assertThat(error.at("/error/message").asText()).contains("set_policy").contains("[run_command, check_command]");
    assertThat(repo.ledgerFile()).isEmpty();
  }
}
