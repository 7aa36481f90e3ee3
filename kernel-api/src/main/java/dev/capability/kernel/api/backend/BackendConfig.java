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
  /**
   * Set to {@code true} by a caller that diagnoses backends ({@code capability doctor}): a backend
   * may then run probes that create objects or take seconds, which it never runs when it is created
   * to decide or to launch. A backend without such probes ignores it.
   */
  public static final String DIAGNOSE = "diagnose";

  public BackendConfig {
    settings = Map.copyOf(Objects.requireNonNull(settings, "settings"));
  }

  /** No settings: every provider's defaults. */
  public static BackendConfig defaults() {
    return new BackendConfig(Map.of());
  }

  /** No settings but {@link #DIAGNOSE}: what a diagnosing caller creates backends with. */
  public static BackendConfig forDiagnosis() {
    return new BackendConfig(Map.of(DIAGNOSE, "true"));
  }

  /** Whether {@link #DIAGNOSE} is {@code true}. */
  public boolean diagnosing() {
    return "true".equals(settings.get(DIAGNOSE));
  }

  /** The value of one setting, if present. */
  public Optional<String> get(String key) {
    return Optional.ofNullable(settings.get(key));
  }
}
