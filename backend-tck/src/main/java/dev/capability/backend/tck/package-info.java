/**
 * The backend contract suite (TCK): abstract JUnit 5 and jqwik tests that any {@link
 * dev.capability.kernel.api.backend.ExecutionBackend} must pass.
 *
 * <p>A backend's test class extends {@link dev.capability.backend.tck.ExecutionBackendContract} and
 * returns its backend from {@link dev.capability.backend.tck.BackendUnderTest#backend()}; it then
 * runs the baseline contract, termination, and one real attack per isolation capability. An attack
 * that succeeds is fine only when the backend does not advertise the capability it would break. See
 * {@code docs/backends/tck.md}.
 */
@NullMarked
package dev.capability.backend.tck;

import org.jspecify.annotations.NullMarked;
