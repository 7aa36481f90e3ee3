/**
 * The process backend, found through {@link
 * dev.capability.backend.process.ProcessBackendProvider}: host processes with no isolation.
 */
@NullMarked
package dev.capability.backend.process;

import org.jspecify.annotations.NullMarked;
