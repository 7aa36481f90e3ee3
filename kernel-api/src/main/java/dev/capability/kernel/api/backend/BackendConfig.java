package dev.capability.kernel.api.backend;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings handed to a {@link BackendProvider} when it creates its backend, for example
 * {@code bwrap.uid}. Keys are namespaced by backend id; unknown keys are ignored by providers.
 *
 * @param settings setting name to value
 */
public record BackendConfig(Map<String, String> settings) {

  public BackendConfig {
    settings = Map.copyOf(Objects.requireNonNull(settings, "settings"));
  }

  /** No settings: every provider's defaults. */
  public static BackendConfig defaults() {
    return new BackendConfig(Map.of());
  }

  /** The value of one setting, if present. */
  public Optional<String> get(String key) {
    return Optional.ofNullable(settings.get(key));
  }
}
