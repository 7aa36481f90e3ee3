/**
 * The Spring AI community agent-sandbox SPI ({@code org.springaicommunity.sandbox.Sandbox}) on the
 * kernel: {@link dev.capability.integrations.agentsandbox.KernelSandbox} runs every command through
 * a host-configured {@code CommandKernel}, so the operator's policy decides it, and keeps its file
 * operations inside the work directory without following symbolic links. What the SPI reports as a
 * failure (a denial, a shell command, a timeout, a path outside the work directory) is a {@link
 * dev.capability.integrations.agentsandbox.KernelSandboxException} with a stable code.
 */
@NullMarked
package dev.capability.integrations.agentsandbox;

import org.jspecify.annotations.NullMarked;
