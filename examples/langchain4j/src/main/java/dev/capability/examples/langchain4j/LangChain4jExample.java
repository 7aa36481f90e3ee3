package dev.capability.examples.langchain4j;

import dev.capability.integrations.langchain4j.LangChain4jTools;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * A LangChain4j agent with the kernel's tools: it reads {@code README.md}, which the operator's
 * policy allows, tries to delete it, which the policy refuses (the agent reads the denial and goes
 * on), and answers. The model is scripted, so the example runs without a network or a key; replace
 * {@link ScriptedModel} with any {@link ChatModel} (OpenAI, Ollama, ...) and nothing else changes.
 *
 * <p>Usage: {@code LangChain4jExample REPOSITORY}. The policy is written to a new private directory,
 * as an operator would install it: outside the repository, owned by this user, writable by no one
 * else.
 */
public final class LangChain4jExample {
  /** The operator's policy: {@code cat} of paths in the repository, and nothing else; no network, no writes. */
  static final String POLICY = """
      {
        "version": 1,
        "timeoutMillis": 60000,
        "network": "none",
        "projectWrites": "read-only",
        "environment": {"inherit": ["PATH", "LANG"]},
        "executables": {
          "cat": {"name": "cat", "arguments": {"operands": {"kind": "path", "minCount": 1}}}
        }
      }
      """;

  /** The agent: one message in, the final answer out. */
  interface Assistant {
    String chat(String message);
  }

  private LangChain4jExample() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: LangChain4jExample REPOSITORY");
      System.exit(2);
    }
    Path repository = Path.of(args[0]).toRealPath();
    Path policyDirectory = Files.createTempDirectory("capability-policy-");
    Path policyFile = writePolicy(policyDirectory);
    try {
      ScriptedModel model = new ScriptedModel();
      System.out.println(run(policyFile, repository, model));
      model.toolResults().forEach(System.out::println);
    } finally {
      Files.delete(policyFile);
      Files.delete(policyDirectory);
    }
  }

  /** Writes {@link #POLICY} as {@code policy.json} in {@code directory}, readable and writable by this user only. */
  static Path writePolicy(Path directory) throws IOException {
    Path file = directory.resolve("policy.json");
    Files.writeString(file, POLICY, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /** Runs the agent on {@code model} in {@code repository} and returns its answer. */
  static String run(Path policyFile, Path repository, ChatModel model) {
    // langchain4j-agent:start
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.load(policyFile, repository)).build()) {
      AgentTools tools = AgentTools.builder(kernel, repository).build();
      Assistant assistant = AiServices.builder(Assistant.class)
          .chatModel(model) // any ChatModel
          .tools(LangChain4jTools.of(tools))
          .hallucinatedToolNameStrategy(LangChain4jTools.unknownTool(tools))
          .build();
      return assistant.chat("Show me README.md, then delete it.");
    }
    // langchain4j-agent:end
  }

  /**
   * The model, scripted: it asks for {@code cat README.md}, then {@code rm README.md}, then answers
   * with what the tools told it. It keeps the tool results it was sent.
   */
  static final class ScriptedModel implements ChatModel {
    private final List<String> toolResults = new ArrayList<>();
    private int turn;

    @Override
    public ChatResponse doChat(ChatRequest request) {
      List<ChatMessage> messages = request.messages();
      if (messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage result) {
        toolResults.add(result.toolName() + " -> " + result.text());
      }
      AiMessage reply = switch (turn++) {
        case 0 -> call("1", "{\"argv\": [\"cat\", \"README.md\"]}");
        case 1 -> call("2", "{\"argv\": [\"rm\", \"README.md\"]}");
        default -> AiMessage.from("I showed README.md; deleting it was refused by the operator's policy.");
      };
      return ChatResponse.builder().aiMessage(reply).build();
    }

    private static AiMessage call(String id, String arguments) {
      return AiMessage.from(ToolExecutionRequest.builder().id(id).name(AgentTools.RUN_COMMAND).arguments(arguments).build());
    }

    /** Each tool result the agent sent the model, as {@code tool -> JSON}. */
    List<String> toolResults() {
      return List.copyOf(toolResults);
    }
  }
}
