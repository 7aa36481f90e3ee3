/**
 * The kernel's value types a host sees: the execution request, its decision, result and
 * attestation, and the exceptions it raises.
 */
@NullMarked
package dev.capability.kernel.api;

import org.jspecify.annotations.NullMarked;
