/**
 * The kernel's agent tools for Spring AI: {@link
 * dev.capability.integrations.springai.CapabilityToolCallbacks} adapts the framework-neutral
 * {@link dev.capability.integrations.tools.AgentTools} to Spring AI {@code ToolCallback}s, and
 * {@link dev.capability.integrations.springai.CapabilityAutoConfiguration} builds the kernel, the
 * capability runtime and the callbacks from the operator's {@code capability.*} properties
 * ({@link dev.capability.integrations.springai.CapabilityProperties}) when {@code
 * capability.policy-path} is set. The operator policy is loaded and checked exactly as the kernel
 * loads it everywhere else; a refused policy stops the application (docs/integrations.md).
 */
@NullMarked
package dev.capability.integrations.springai;

import org.jspecify.annotations.NullMarked;
