package dev.capability.integrations.springai.reaching;

import dev.capability.integrations.tools.internal.ToolSet;

/** What {@code PublicApiOnlyTest} must catch: a class of this integration using another module's internal package. */
public final class ReachingIntoAgentToolsInternals {
  private ReachingIntoAgentToolsInternals() {}

  /** Names an internal class of the agent tools. */
  public static Class<?> reached() {
    return ToolSet.class;
  }
}
