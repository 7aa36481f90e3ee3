/**
 * The bubblewrap backend, found through {@link dev.capability.backend.bwrap.BwrapBackendProvider}.
 */
@NullMarked
package dev.capability.backend.bwrap;

import org.jspecify.annotations.NullMarked;
