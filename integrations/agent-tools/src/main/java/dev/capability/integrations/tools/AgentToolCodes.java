package dev.capability.integrations.tools;

/**
 * The codes of the agent tools' own errors, in {@code {"error": {"code": ...}}}. An error of the
 * kernel, the runtime or the work plans keeps its module's code ({@code SHELL_SYNTAX}, {@code
 * PLAN_DRIFT}, {@code WORK_PLAN_INVALID}, ...). With any of these nothing ran and nothing was
 * recorded.
 */
public final class AgentToolCodes {
  /** The arguments are not a JSON object, miss a required argument, hold an unknown one, or one of the wrong type. */
  public static final String INVALID_ARGUMENT = "AGENT_TOOL_INVALID_ARGUMENT";

  /** The arguments are larger than {@link AgentTools#MAX_ARGUMENTS_BYTES}, or argv longer than {@link AgentTools#MAX_ARGV}. */
  public static final String ARGUMENTS_TOO_LARGE = "AGENT_TOOL_ARGUMENTS_TOO_LARGE";

  /** run_capability named a capability the host did not register; the message lists those it did. */
  public static final String UNKNOWN_CAPABILITY = "AGENT_TOOL_UNKNOWN_CAPABILITY";

  /**
   * The capability plan needs an approval (it requests a mutating or open-world effect) and the
   * host did not pre-approve its fingerprint; the message names the fingerprint and the effects.
   */
  public static final String APPROVAL_NOT_PREAUTHORIZED = "AGENT_TOOL_APPROVAL_NOT_PREAUTHORIZED";

  /**
   * The model called a tool that is not offered; the message lists those that are. The framework
   * adapters answer it (for LangChain4j, {@code LangChain4jTools.unknownTool}).
   */
  public static final String UNKNOWN_TOOL = "AGENT_TOOL_UNKNOWN_TOOL";

  /** The tool failed for a reason that is not the model's (the message names the exception). */
  public static final String TOOL_FAILED = "AGENT_TOOL_FAILED";

  private AgentToolCodes() {}
}
