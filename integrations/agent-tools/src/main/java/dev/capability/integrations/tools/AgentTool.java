package dev.capability.integrations.tools;

/**
 * One tool an agent can call: what a framework shows the model ({@link #name()}, {@link
 * #description()}, {@link #inputSchema()}) and what runs when the model calls it ({@link
 * #execute(String)}).
 *
 * <p>{@link #execute(String)} never throws for the model's mistakes or for a refusal: bad
 * arguments come back as {@code {"error": {"code": ..., "message": ...}}} with nothing run, and a
 * command or capability the policy refuses as {@code {"status": "DENIED", "layer": ..., "rule":
 * ..., "code": ..., "reason": ...}}, so the agent loop goes on and the model can read why.
 */
public interface AgentTool {
  /** The name the model calls the tool by, such as {@code run_command}. */
  String name();

  /** What the tool does, for the model. */
  String description();

  /** The JSON Schema (draft 2020-12) of the arguments object, as JSON text. */
  String inputSchema();

  /**
   * Runs the tool on the model's arguments.
   *
   * @param jsonArguments the arguments as a JSON object's text; null or blank is an empty object
   * @return the result as a JSON object's text: the tool's result, a denial, or {@code {"error":
   *     {"code", "message"}}} with one of {@link AgentToolCodes} or the refusing module's code
   */
  String execute(String jsonArguments);
}
