/** The Kubernetes backend, found through {@link dev.capability.backend.kubernetes.KubernetesBackendProvider}. */
@NullMarked
package dev.capability.backend.kubernetes;

import org.jspecify.annotations.NullMarked;
