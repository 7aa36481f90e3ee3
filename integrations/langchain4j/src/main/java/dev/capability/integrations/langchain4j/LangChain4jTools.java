package dev.capability.integrations.langchain4j;

import dev.capability.integrations.langchain4j.internal.AgentToolExecutor;
import dev.capability.integrations.langchain4j.internal.Schemas;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.integrations.tools.AgentTool;
import dev.capability.integrations.tools.AgentToolCodes;
import dev.capability.integrations.tools.AgentTools;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.tool.ToolExecutor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The agent tools as LangChain4j tools:
 *
 * <pre>{@code
 * Assistant assistant = AiServices.builder(Assistant.class)
 *     .chatModel(model)
 *     .tools(LangChain4jTools.of(tools))
 *     .hallucinatedToolNameStrategy(LangChain4jTools.unknownTool(tools))
 *     .build();
 * }</pre>
 *
 * <p>Each executor hands the model's arguments to the tool as they came and returns the tool's JSON
 * text. It never throws: a denial is a result the model reads ({@code "status": "DENIED"} with the
 * layer, rule, code and reason), and bad arguments are a result marked as an error ({@code
 * {"error": {"code", "message"}}}), so the agent loop goes on.
 */
public final class LangChain4jTools {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LangChain4jTools() {}

  /** Every tool of {@code tools}, in their order, as a map for {@code AiServices.Builder#tools(Map)}. */
  public static Map<ToolSpecification, ToolExecutor> of(AgentTools tools) {
    Map<ToolSpecification, ToolExecutor> map = new LinkedHashMap<>();
    for (AgentTool tool : tools.all()) {
      map.put(specification(tool), executor(tool));
    }
    return Collections.unmodifiableMap(map);
  }

  /** The tool's name, description and input schema as LangChain4j describes a tool to the model. */
  public static ToolSpecification specification(AgentTool tool) {
    return ToolSpecification.builder()
        .name(tool.name())
        .description(tool.description())
        .parameters(Schemas.objectSchema(tool.inputSchema()))
        .build();
  }

  /** An executor that runs {@code tool} on the model's arguments; results holding {@code "error"} are marked as errors. */
  public static ToolExecutor executor(AgentTool tool) {
    return new AgentToolExecutor(tool);
  }

  /**
   * For {@code AiServices.Builder#hallucinatedToolNameStrategy}: a call of a tool that is not
   * offered is answered with {@code {"error": {"code": "AGENT_TOOL_UNKNOWN_TOOL", "message"}}}
   * listing the tools of {@code tools}, instead of LangChain4j's default, which ends the agent loop
   * with an exception. (LangChain4j 1.19.0 passes on the text of this message, not its error flag.)
   */
  public static Function<ToolExecutionRequest, ToolExecutionResultMessage> unknownTool(AgentTools tools) {
    List<String> names = tools.all().stream().map(AgentTool::name).toList();
    return request -> {
      String message = "no tool '" + request.name() + "' is offered; the tools are " + names;
      String text;
      try {
        text = JSON.writeValueAsString(Map.of("error", Map.of("code", AgentToolCodes.UNKNOWN_TOOL, "message", message)));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("an error is not JSON", e);
      }
      return ToolExecutionResultMessage.builder().id(request.id()).toolName(request.name()).text(text).isError(true).build();
    };
  }
}
