/**
 * Framework-neutral tools an agent can call on a kernel and a capability runtime the host
 * configured: {@link dev.capability.integrations.tools.AgentTools} builds them, each an {@link
 * dev.capability.integrations.tools.AgentTool} with a name, a description, a JSON input schema and
 * an executor that takes the model's JSON arguments and returns a JSON result. The operator policy
 * is the host's; the model only chooses the command, the capability and its input. The LangChain4j
 * and Spring AI integrations adapt these tools (docs/integrations.md).
 */
@NullMarked
package dev.capability.integrations.tools;

import org.jspecify.annotations.NullMarked;
