package dev.capability.integrations.springai.internal;

import dev.capability.integrations.tools.AgentTool;
import java.util.Objects;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * One agent tool as a Spring AI tool callback: the model sees the tool's name, description and
 * schema, and a call hands the model's JSON arguments to the tool unchanged. The tool answers bad
 * arguments and refusals with a JSON result, so nothing here throws for the model's mistakes and
 * the tool-calling loop goes on.
 */
public final class AgentToolCallback implements ToolCallback {
  private final AgentTool tool;
  private final ToolDefinition definition;

  public AgentToolCallback(AgentTool tool) {
    this.tool = Objects.requireNonNull(tool, "tool");
    this.definition = ToolDefinition.builder()
        .name(tool.name())
        .description(tool.description())
        .inputSchema(tool.inputSchema())
        .build();
  }

  @Override
  public ToolDefinition getToolDefinition() {
    return definition;
  }

  @Override
  public String call(String toolInput) {
    return tool.execute(toolInput);
  }

  @Override
  public String toString() {
    return "ToolCallback[" + tool.name() + "]";
  }
}
