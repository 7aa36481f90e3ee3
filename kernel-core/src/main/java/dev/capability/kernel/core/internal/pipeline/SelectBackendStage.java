package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.backend.BackendRegistry;
import dev.capability.kernel.core.internal.backend.SelectedBackend;
import dev.capability.kernel.core.internal.backend.BackendVersions;

/**
 * Stage 6: the backend by id, or the strongest sandbox that supplies every capability the policy
 * and the request require (a backend that is not a sandbox only when the operator policy allows
 * the unisolated fallback). When the layers allow no network, a network namespace is required: the
 * kernel never launches with a network the layers did not grant. The chosen backend becomes the
 * fifth authority layer. Its versions must meet the policy's minimums for it.
 */
final class SelectBackendStage implements Stage {
  private final ExecutionPolicy policy;
  private final BackendRegistry backends;

  SelectBackendStage(ExecutionPolicy policy, BackendRegistry backends) {
    this.policy = policy;
    this.backends = backends;
  }

  @Override
  public void apply(ExecutionContext context) {
    context.requiredCapabilities.addAll(policy.requiredCapabilities());
    context.requiredCapabilities.addAll(context.request.requiredCapabilities());
    if (context.authority.networkMode().isEmpty()) {
      context.deny(context.authority.network());
      return;
    }
    if (context.authority.networkMode().get() == NetworkMode.NONE) {
      context.requiredCapabilities.add(IsolationCapability.NETWORK_NAMESPACE);
    }
    SelectedBackend selected =
        backends.select(context.request.backendId(), context.requiredCapabilities, policy.allowUnisolatedFallback());
    context.backend = selected.backend();
    context.backendChoice = selected.choice();
    context.backendReason = selected.reason();
    BackendVersions.requireMinimums(context.backend, policy.minimumBackendVersions());
    context.authority = context.authority.withBackend(context.backend.id(), context.backend.capabilities());
  }
}
