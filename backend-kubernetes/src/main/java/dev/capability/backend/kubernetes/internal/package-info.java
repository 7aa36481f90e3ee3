/** The Kubernetes backend's implementation: settings, the pod and policy it creates, one run, the leak sweep. */
@NullMarked
package dev.capability.backend.kubernetes.internal;

import org.jspecify.annotations.NullMarked;
