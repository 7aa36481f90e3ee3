package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.Executor;
import dev.capability.capability.runtime.ExecutorConfig;
import dev.capability.capability.runtime.ExecutorProvider;
import dev.capability.kernel.api.CapabilityException;

/**
 * Provides the {@code in-process} executor, which takes no backend and one optional setting:
 * {@value #ALLOW_HOST_NETWORK} {@code true} lets a run granted {@code network.connect} use the
 * host's whole network, unfiltered (by default such a run is refused).
 */
public final class InProcessExecutorProvider implements ExecutorProvider {
  /** The setting that lets runs granted {@code network.connect} use the host network unfiltered. */
  public static final String ALLOW_HOST_NETWORK = InProcessExecutor.ID + ".allowHostNetwork";

  @Override
  public String id() {
    return InProcessExecutor.ID;
  }

  @Override
  public Availability probe() {
    return Availability.available("runs in this JVM, with no boundary");
  }

  /**
   * @throws CapabilityException {@code EXECUTOR_SETTING_INVALID} for an {@value #ALLOW_HOST_NETWORK}
   *     that is neither {@code true} nor {@code false}
   */
  @Override
  public Executor create(ExecutorConfig config) {
    String value = config.get(ALLOW_HOST_NETWORK).orElse("false");
    return switch (value) {
      case "true" -> new InProcessExecutor(true);
      case "false" -> new InProcessExecutor(false);
      default -> throw new CapabilityException(
          CapabilityCodes.EXECUTOR_SETTING_INVALID, ALLOW_HOST_NETWORK + " must be true or false, not '" + value + "'");
    };
  }
}
