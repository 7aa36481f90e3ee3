/**
 * Testing code that runs commands through the kernel: annotate a test class or method with
 * {@link dev.capability.junit5.CapabilitySandbox} and declare what it needs as parameters (a
 * {@link dev.capability.kernel.core.CommandKernel}, a {@link
 * dev.capability.capability.runtime.CapabilityRuntime}, the repository as a {@link
 * java.nio.file.Path} marked {@link dev.capability.junit5.SandboxRepository}, the test's {@link
 * dev.capability.ledger.LedgerReader}); assert on results with {@link
 * dev.capability.junit5.CapabilityAssertions}. See {@code docs/integrations.md}.
 */
@NullMarked
package dev.capability.junit5;

import org.jspecify.annotations.NullMarked;
