package dev.capability.integrations.springai.internal;

import dev.capability.integrations.springai.SpringAiCodes;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.plugin.Plugins;
import java.util.Map;

/** The backend provider {@code capability.backend} names, checked at startup rather than at the first command. */
public final class NamedBackend {
  private NamedBackend() {}

  /**
   * The installed provider with id {@code id}, available on this machine.
   *
   * @throws CapabilityException {@link SpringAiCodes#CONFIG_INVALID} naming the installed backends
   *     when none has that id, or the reason when it cannot run here
   */
  public static BackendProvider provider(String id, ClassLoader loader) {
    Map<String, BackendProvider> installed = Plugins.load(BackendProvider.class, BackendProvider::id, loader);
    BackendProvider provider = installed.get(id);
    if (provider == null) {
      throw new CapabilityException(SpringAiCodes.CONFIG_INVALID, SpringAiCodes.CONFIG_INVALID + ": capability.backend '" + id
          + "' is not installed; installed: " + installed.keySet().stream().sorted().toList());
    }
    BackendProvider.Availability availability = provider.probe();
    if (!availability.available()) {
      throw new CapabilityException(SpringAiCodes.CONFIG_INVALID, SpringAiCodes.CONFIG_INVALID + ": capability.backend '" + id
          + "' cannot run on this machine: " + availability.reason());
    }
    return provider;
  }
}
