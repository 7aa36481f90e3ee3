/**
 * The Docker backend, found through {@link dev.capability.backend.docker.DockerBackendProvider},
 * and the local runtime image it runs in.
 */
@NullMarked
package dev.capability.backend.docker;

import org.jspecify.annotations.NullMarked;
