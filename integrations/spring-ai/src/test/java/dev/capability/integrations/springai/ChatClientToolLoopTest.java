package dev.capability.integrations.springai;

import static dev.capability.integrations.springai.ScriptedChatModel.answer;
import static dev.capability.integrations.springai.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.integrations.tools.AgentToolCodes;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.store.EvidenceStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallAdvisor;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A Spring AI {@link ChatClient} agent loop on the auto-configured tool callbacks, with a scripted
 * model and the real kernel in a real Bubblewrap sandbox: what each tool returns is read from the
 * prompt the model is sent next, as a real model would read it.
 */
class ChatClientToolLoopTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temp;
  private PolicyFixture fixture;
  private final List<ExecutionResult> recorded = new CopyOnWriteArrayList<>();
  private ApplicationContextRunner runner;

  @BeforeEach
  void createContext() throws Exception {
    BWRAP.backend();
    fixture = PolicyFixture.create(temp);
    EvidenceStore evidence = recorded::add;
    runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(CapabilityAutoConfiguration.class))
        .withBean(EvidenceStore.class, () -> evidence)
        .withPropertyValues(fixture.properties("capability.backend=bwrap", "capability.capabilities[echo]=" + fixture.capability));
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void theAllowedCommandRunsInBwrapTheDeniedOneReturnsItsDenialToTheModelAndTheLoopGoesOnToACapabilityAndAnAnswer() {
    ScriptedChatModel model = ScriptedChatModel.replying(
        toolCall("call-1", AgentTools.RUN_COMMAND, "{\"argv\": [\"git\", \"status\", \"--short\"]}"),
        toolCall("call-2", AgentTools.RUN_COMMAND, "{\"argv\": [\"git\", \"log\"]}"),
        toolCall("call-3", AgentTools.RUN_CAPABILITY, "{\"capability\": \"echo\", \"input\": {\"text\": \"hi\"}}"),
        answer("hello.txt is untracked; the log is not mine to read."));

    runner.run(context -> {
      String reply = chat(model, context.getBean(CapabilityToolCallbacks.class)).prompt()
          .user("What changed in the repository?").call().content();

      assertThat(reply).isEqualTo("hello.txt is untracked; the log is not mine to read.");
      assertThat(model.prompts()).hasSize(4);

      JsonNode status = JSON.readTree(model.toolResults(1).get("call-1"));
      assertThat(status.path("status").asText()).isEqualTo("COMPLETED");
      assertThat(status.path("exitCode").asInt()).isZero();
      assertThat(status.path("stdout").path("text").asText()).isEqualTo("?? hello.txt\n");
      assertThat(status.path("attestation").path("backend").path("id").asText()).isEqualTo("bwrap");

      assertThat(model.lastMessage(2)).isInstanceOf(ToolResponseMessage.class);
      JsonNode log = JSON.readTree(model.toolResults(2).get("call-2"));
      assertThat(log.path("status").asText()).isEqualTo("DENIED");
      assertThat(log.path("code").asText()).isEqualTo("SUBCOMMAND_NOT_ALLOWED");
      assertThat(log.path("layer").asText()).isEqualTo("operator");
      assertThat(log.path("reason").asText()).isNotBlank();

      JsonNode echo = JSON.readTree(model.toolResults(3).get("call-3"));
      assertThat(echo.path("status").asText()).as(echo.toString()).isEqualTo("SUCCEEDED");
      assertThat(JSON.readTree(echo.path("output").asText()).path("received").path("text").asText()).isEqualTo("hi");

      assertThat(recorded).extracting(ExecutionResult::status).containsExactly(ExecutionStatus.COMPLETED, ExecutionStatus.DENIED);
    });
  }

  @Test
  void badArgumentsComeBackAsToolErrorsAndNothingRuns() {
    String huge = "x".repeat(AgentTools.MAX_ARGUMENTS_BYTES + 1);
    ScriptedChatModel model = ScriptedChatModel.replying(
        toolCall("not-strings", AgentTools.RUN_COMMAND, "{\"argv\": [\"git\", 1]}"),
        toolCall("huge", AgentTools.RUN_COMMAND, "{\"argv\": [\"git\", \"status\", \"" + huge + "\"]}"),
        toolCall("unknown", AgentTools.RUN_CAPABILITY, "{\"capability\": \"no-such-capability\", \"input\": {}}"),
        toolCall("not-json", AgentTools.RUN_COMMAND, "argv: git status"),
        answer("I could not run anything."));

    runner.run(context -> {
      String reply = chat(model, context.getBean(CapabilityToolCallbacks.class)).prompt()
          .user("Run something.").call().content();

      assertThat(reply).isEqualTo("I could not run anything.");
      assertThat(errorCode(model.toolResults(1).get("not-strings"))).isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
      assertThat(errorCode(model.toolResults(2).get("huge"))).isEqualTo(AgentToolCodes.ARGUMENTS_TOO_LARGE);
      assertThat(errorCode(model.toolResults(3).get("unknown"))).isEqualTo(AgentToolCodes.UNKNOWN_CAPABILITY);
      assertThat(errorCode(model.toolResults(4).get("not-json"))).isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
      assertThat(recorded).isEmpty();
    });
  }

  /** A client that runs the tool-calling loop in Spring AI's own advisor, as an application would. */
  private static ChatClient chat(ScriptedChatModel model, CapabilityToolCallbacks callbacks) {
    return ChatClient.builder(model)
        .defaultAdvisors(ToolCallAdvisor.builder().build())
        .defaultToolCallbacks(callbacks.asList())
        .build();
  }

  private static String errorCode(String toolResult) throws Exception {
    return JSON.readTree(toolResult).path("error").path("code").asText();
  }
}
