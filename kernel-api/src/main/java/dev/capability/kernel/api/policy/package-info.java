/**
 * The operator's execution policy as a typed, immutable model: which executables may run with
 * which arguments, what environment they get, and the bounds every run is held to.
 *
 * <p>A policy is deny-by-default: a command runs only if an {@link
 * dev.capability.kernel.api.policy.ExecutableRule} allows its argv. Policies are loaded from a
 * JSON file or built in code and validated the same way either way; see {@code docs/policy.md}.
 */
@NullMarked
package dev.capability.kernel.api.policy;

import org.jspecify.annotations.NullMarked;
