package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.backend.BackendRegistry;
import dev.capability.kernel.core.internal.backend.BackendVersions;
import dev.capability.kernel.core.internal.backend.SelectedBackend;
import dev.capability.kernel.core.internal.egress.EgressGatewaySource;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Stage 6: the backend by id, or the strongest sandbox that supplies every capability the policy
 * and the request require (a backend that is not a sandbox only when the operator policy allows
 * the unisolated fallback). When the layers allow no network, a network namespace is required;
 * when they allow filtered network, {@code FILTERED_EGRESS} and an egress gateway are, and a
 * backend or a machine without them is refused with {@code NETWORK_FILTER_UNAVAILABLE}: the kernel
 * never launches with a network the layers did not grant, wider or narrower. The chosen backend
 * becomes the fifth authority layer. Its versions must meet the policy's minimums for it.
 */
final class SelectBackendStage implements Stage {
  private final ExecutionPolicy policy;
  private final BackendRegistry backends;
  private final EgressGatewaySource gateways;

  SelectBackendStage(ExecutionPolicy policy, BackendRegistry backends, EgressGatewaySource gateways) {
    this.policy = policy;
    this.backends = backends;
    this.gateways = gateways;
  }

  @Override
  public void apply(ExecutionContext context) {
    context.requiredCapabilities.addAll(policy.requiredCapabilities());
    context.requiredCapabilities.addAll(context.request.requiredCapabilities());
    if (context.authority.networkMode().isEmpty()) {
      context.deny(context.authority.network());
      return;
    }
    NetworkMode network = context.authority.networkMode().get();
    if (network == NetworkMode.NONE) {
      context.requiredCapabilities.add(IsolationCapability.NETWORK_NAMESPACE);
    }
    if (network == NetworkMode.FILTERED) {
      context.requiredCapabilities.add(IsolationCapability.FILTERED_EGRESS);
    }
    SelectedBackend selected = network == NetworkMode.FILTERED ? selectFiltering(context) : select(context, context.requiredCapabilities);
    context.backend = selected.backend();
    context.backendChoice = selected.choice();
    context.backendReason = selected.reason();
    BackendVersions.requireMinimums(context.backend, policy.minimumBackendVersions());
    context.authority = context.authority.withBackend(context.backend.id(), context.backend.capabilities());
    if (!context.authority.networkMode().equals(Optional.of(network))) {
      // The requirements above make this unreachable; should a backend layer ever narrow or widen
      // the network, the command does not run with the result.
      throw new IllegalStateException("backend '" + context.backend.id() + "' changed the network from " + network
          + " to " + context.authority.networkMode());
    }
    if (network == NetworkMode.FILTERED) {
      context.egressGateway = gateways.require();
    }
  }

  private SelectedBackend select(ExecutionContext context, Set<IsolationCapability> required) {
    return backends.select(context.request.backendId(), required, policy.allowUnisolatedFallback());
  }

  /**
   * The backend for filtered network. When none fits only because none supplies {@code
   * FILTERED_EGRESS}, the refusal is {@code NETWORK_FILTER_UNAVAILABLE}; when something else is
   * missing too, it stays the selection's own.
   */
  private SelectedBackend selectFiltering(ExecutionContext context) {
    try {
      return select(context, context.requiredCapabilities);
    } catch (BackendUnavailableException e) {
      if (!e.code().equals(BackendUnavailableException.ISOLATION_UNAVAILABLE)) {
        throw e;
      }
      Set<IsolationCapability> withoutFilter = EnumSet.copyOf(context.requiredCapabilities);
      withoutFilter.remove(IsolationCapability.FILTERED_EGRESS);
      try {
        select(context, withoutFilter);
      } catch (BackendUnavailableException otherwise) {
        throw e;
      }
      throw new NetworkFilterUnavailableException("filtered network needs a backend that supplies FILTERED_EGRESS, and is"
          + " never replaced by none or host: " + e.getMessage(), e);
    }
  }
}
