/**
 * Acquisition of capability packages: exact coordinates, sources, verification of checksums,
 * signatures and provenance, observations, trust policies and an advisory trust score. Acquisition
 * is inert: bytes are stored by their digest, nothing is extracted and nothing runs.
 */
@NullMarked
package dev.capability.acquire;

import org.jspecify.annotations.NullMarked;
