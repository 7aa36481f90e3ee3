/**
 * The capability runtime: inspect, plan, decide, execute, verify and receipt, starting at {@link
 * dev.capability.capability.runtime.CapabilityRuntime}.
 */
@NullMarked
package dev.capability.capability.runtime;

import org.jspecify.annotations.NullMarked;
