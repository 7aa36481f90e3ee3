package dev.capability.integrations.springai;

import dev.capability.integrations.springai.internal.AgentToolCallback;
import dev.capability.integrations.tools.AgentTools;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.tool.ToolCallback;

/**
 * The agent tools of {@link AgentTools} as Spring AI tool callbacks, in the same order: {@code
 * run_command} and {@code check_command}, then {@code run_capability} and the work-plan tools when
 * the tools offer them. Give them to a {@code ChatClient} ({@code .defaultToolCallbacks(callbacks.asList())}
 * or per request {@code .toolCallbacks(callbacks.asList())}).
 *
 * <p>This is deliberately neither a {@code ToolCallback} nor a {@code ToolCallbackProvider}: Spring
 * AI's MCP server starter publishes every bean of those types to its MCP clients, and Spring AI's
 * tool resolver lets any prompt name them. Running commands is handed to exactly the clients the
 * application gives it to.
 *
 * <p>A call passes the model's JSON arguments to the tool and returns the tool's JSON result: a
 * denial ({@code "status": "DENIED"} with the layer, rule, code and reason) or bad arguments
 * ({@code {"error": {"code", "message"}}}, nothing run) go back to the model as the tool's answer,
 * never as an exception that would end the conversation.
 */
public final class CapabilityToolCallbacks {
  private final List<ToolCallback> callbacks;

  private CapabilityToolCallbacks(List<ToolCallback> callbacks) {
    this.callbacks = List.copyOf(callbacks);
  }

  /** One callback for each of {@code tools}. */
  public static CapabilityToolCallbacks of(AgentTools tools) {
    Objects.requireNonNull(tools, "tools");
    return new CapabilityToolCallbacks(tools.all().stream().<ToolCallback>map(AgentToolCallback::new).toList());
  }

  /** The callbacks, as an immutable list. */
  public List<ToolCallback> asList() {
    return callbacks;
  }
}
