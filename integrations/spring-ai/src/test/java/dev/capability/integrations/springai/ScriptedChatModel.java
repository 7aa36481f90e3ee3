package dev.capability.integrations.springai;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A chat model that answers each prompt with the next of its predetermined replies (tool calls or
 * a final text) and keeps every prompt it was sent, so that a test can read what the tools
 * returned to the "model". No network.
 */
final class ScriptedChatModel implements ChatModel {
  private final Deque<AssistantMessage> replies;
  private final List<Prompt> prompts = new ArrayList<>();

  private ScriptedChatModel(List<AssistantMessage> replies) {
    this.replies = new ArrayDeque<>(replies);
  }

  static ScriptedChatModel replying(AssistantMessage... replies) {
    return new ScriptedChatModel(List.of(replies));
  }

  /** A reply that calls {@code tool} with {@code arguments} (JSON text). */
  static AssistantMessage toolCall(String id, String tool, String arguments) {
    return AssistantMessage.builder().content("").toolCalls(List.of(new AssistantMessage.ToolCall(id, "function", tool, arguments))).build();
  }

  /** A reply that ends the conversation with {@code text}. */
  static AssistantMessage answer(String text) {
    return new AssistantMessage(text);
  }

  @Override
  public synchronized ChatResponse call(Prompt prompt) {
    prompts.add(prompt);
    AssistantMessage reply = replies.poll();
    if (reply == null) {
      throw new IllegalStateException("the script has no reply left for prompt " + prompts.size());
    }
    return new ChatResponse(List.of(new Generation(reply)));
  }

  @Override
  public ChatOptions getDefaultOptions() {
    return ToolCallingChatOptions.builder().build();
  }

  synchronized List<Prompt> prompts() {
    return List.copyOf(prompts);
  }

  /** The tool results in prompt {@code index} (0 = first), by tool call id. */
  synchronized Map<String, String> toolResults(int index) {
    return prompts.get(index).getInstructions().stream()
        .filter(ToolResponseMessage.class::isInstance)
        .map(ToolResponseMessage.class::cast)
        .flatMap(message -> message.getResponses().stream())
        .collect(Collectors.toMap(ToolResponseMessage.ToolResponse::id, ToolResponseMessage.ToolResponse::responseData));
  }

  /** The last message of prompt {@code index}. */
  synchronized Message lastMessage(int index) {
    List<Message> instructions = prompts.get(index).getInstructions();
    return instructions.get(instructions.size() - 1);
  }
}
