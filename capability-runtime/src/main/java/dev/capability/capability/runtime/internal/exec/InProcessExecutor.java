package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.api.Capability;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityDescriptor;
import dev.capability.capability.runtime.CapabilityRequest;
import dev.capability.capability.runtime.CapabilityResult;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectKind;
import dev.capability.capability.runtime.Executor;
import dev.capability.capability.runtime.ExecutorIdentity;
import dev.capability.capability.runtime.Hook;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a capability inside the host JVM, in its own class loader. No boundary applies: the code
 * holds the host's full authority, whatever the policy granted. For code the host already trusts,
 * chosen only by name ({@code in-process}).
 *
 * <p>It cannot hold a run to granted {@code network.connect} scopes (the host's network is the
 * capability's), so it refuses a run granted one with {@code NETWORK_FILTER_UNAVAILABLE} unless the
 * host built it with {@code allowHostNetwork}: a receipt that lists a network grant then says the
 * host network was used with no filter ({@code boundaryApplied: false}).
 */
public final class InProcessExecutor implements Executor {
  /** The id hosts name to choose this executor. */
  public static final String ID = "in-process";

  private final boolean allowHostNetwork;

  /** An executor that refuses runs granted {@code network.connect}. */
  public InProcessExecutor() {
    this(false);
  }

  /**
   * @param allowHostNetwork whether a run granted {@code network.connect} may run with the host's
   *     whole network, unfiltered; for trusted code only
   */
  public InProcessExecutor(boolean allowHostNetwork) {
    this.allowHostNetwork = allowHostNetwork;
  }

  private static final Logger LOG = LoggerFactory.getLogger(InProcessExecutor.class);

  @Override
  public ExecutorIdentity identity() {
    // Allowing the host network widens what an approval allows, so a plan binds it.
    return new ExecutorIdentity(
        ID, new TreeMap<>(allowHostNetwork ? Map.of("isolation", "none", "network", "host") : Map.of("isolation", "none")));
  }

  @Override
  public int isolationStrength() {
    return 0;
  }

  @Override
  public boolean explicitOnly() {
    return true;
  }

  @Override
  public boolean available() {
    return true;
  }

  @Override
  public CapabilityResult execute(CapabilityRequest request) {
    List<Effect> network = request.granted().stream().filter(effect -> effect.kind() == EffectKind.NETWORK_CONNECT).toList();
    if (!network.isEmpty() && !allowHostNetwork) {
      throw new NetworkFilterUnavailableException(
          "the in-process executor cannot hold a run to its granted " + network + ": the capability would have the host's whole network."
              + " Run it in the child-JVM executor, or allow the host network explicitly (" + InProcessExecutorProvider.ALLOW_HOST_NETWORK + ")");
    }
    CapabilityDescriptor descriptor = request.pkg().descriptor();
    String module = descriptor.entry().module();
    byte[] jar =
        request.pkg()
            .module(module)
            .orElseThrow(() -> new CapabilityException(CapabilityCodes.MODULE_MISSING, "module " + module + " is not in the package"));
    ModuleClassLoader loader = new ModuleClassLoader(descriptor.name(), jar, Capability.class.getClassLoader());
    Capability capability;
    try {
      Class<?> entry = Class.forName(descriptor.entry().className(), true, loader);
      capability = entry.asSubclass(Capability.class).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
      return new CapabilityResult(
          false, Optional.empty(), Optional.of("entry class cannot be instantiated: " + Lifecycle.describe(cause)), false, Optional.empty(), List.of(), List.of(),
          List.of());
    }
    String name = descriptor.name();
    Lifecycle.Outcome outcome =
        Lifecycle.run(
            capability,
            request.inputJson(),
            GrantedContext.of(request.granted(), line -> LOG.info("[{}] {}", name, line)),
            descriptor.hooks().contains(Hook.VERIFY),
            descriptor.hooks().contains(Hook.ROLLBACK));
    return new CapabilityResult(outcome.failure().isEmpty(), outcome.output(), outcome.failure(), false, Optional.empty(), outcome.hooks(), List.of(), List.of());
  }
}
