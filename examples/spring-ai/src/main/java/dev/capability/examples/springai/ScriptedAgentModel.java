package dev.capability.examples.springai;

import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A stand-in for a real model, so that the example runs without a network or an API key: it calls
 * {@code run_command} with {@code git status --short}, then with {@code git log}, and then answers
 * with what the two tool calls returned, as a model would read them.
 */
final class ScriptedAgentModel implements ChatModel {
  @Override
  public ChatResponse call(Prompt prompt) {
    List<ToolResponseMessage.ToolResponse> results = prompt.getInstructions().stream()
        .filter(ToolResponseMessage.class::isInstance)
        .map(ToolResponseMessage.class::cast)
        .flatMap(message -> message.getResponses().stream())
        .toList();
    AssistantMessage reply = switch (results.size()) {
      case 0 -> runCommand("status", "[\"git\", \"status\", \"--short\"]");
      case 1 -> runCommand("log", "[\"git\", \"log\"]");
      default -> new AssistantMessage("git status --short answered " + results.get(0).responseData()
          + "\ngit log answered " + results.get(1).responseData());
    };
    return new ChatResponse(List.of(new Generation(reply)));
  }

  private static AssistantMessage runCommand(String id, String argv) {
    return AssistantMessage.builder()
        .content("")
        .toolCalls(List.of(new AssistantMessage.ToolCall(id, "function", "run_command", "{\"argv\": " + argv + "}")))
        .build();
  }

  @Override
  public ChatOptions getDefaultOptions() {
    return ToolCallingChatOptions.builder().build();
  }
}
