/**
 * The kernel as a Model Context Protocol server: {@link dev.capability.mcp.CapabilityMcpServer}
 * serves the command, workspace, capability and evidence tools over stdio or streamable HTTP, under
 * the operator's policy and allowed roots (docs/mcp.md).
 */
@NullMarked
package dev.capability.mcp;

import org.jspecify.annotations.NullMarked;
