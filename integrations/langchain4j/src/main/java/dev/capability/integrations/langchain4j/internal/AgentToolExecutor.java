package dev.capability.integrations.langchain4j.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.integrations.tools.AgentTool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import org.jspecify.annotations.Nullable;

/** Runs one agent tool on a LangChain4j tool call; a tool error reaches the model as a result marked as an error. */
public final class AgentToolExecutor implements ToolExecutor {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AgentTool tool;

  public AgentToolExecutor(AgentTool tool) {
    this.tool = tool;
  }

  @Override
  public String execute(ToolExecutionRequest request, @Nullable Object memoryId) {
    return tool.execute(request.arguments());
  }

  @Override
  public ToolExecutionResult executeWithContext(ToolExecutionRequest request, @Nullable InvocationContext context) {
    String text = tool.execute(request.arguments());
    return ToolExecutionResult.builder().resultText(text).isError(isError(text)).build();
  }

  private static boolean isError(String text) {
    try {
      JsonNode result = JSON.readTree(text);
      return result != null && result.has("error");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an agent tool answered text that is not JSON: " + text, e);
    }
  }

  @Override
  public String toString() {
    return "AgentToolExecutor[" + tool.name() + "]";
  }
}
