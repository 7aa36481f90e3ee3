/** The MCP server's tools, workspace guard and HTTP gate: not API. */
package dev.capability.mcp.internal;
