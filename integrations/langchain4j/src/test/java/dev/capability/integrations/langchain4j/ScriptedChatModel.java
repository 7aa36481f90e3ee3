package dev.capability.integrations.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A chat model that answers with predetermined messages, in order, and keeps every request it was
 * sent, so a test can read what the agent loop gave the model (the tools, the tool results). No
 * network.
 */
final class ScriptedChatModel implements ChatModel {
  private final Deque<AiMessage> script;
  final List<ChatRequest> requests = new ArrayList<>();

  ScriptedChatModel(AiMessage... script) {
    this.script = new ArrayDeque<>(List.of(script));
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    requests.add(request);
    AiMessage next = script.pollFirst();
    if (next == null) {
      throw new AssertionError("the agent asked the model more often than the script answers: " + request.messages());
    }
    return ChatResponse.builder().aiMessage(next).build();
  }
}
