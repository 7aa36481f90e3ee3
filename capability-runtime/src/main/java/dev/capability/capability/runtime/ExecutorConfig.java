package dev.capability.capability.runtime;

import dev.capability.kernel.core.Backends;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an {@link ExecutorProvider} creates its executor with.
 *
 * @param baseDirectory where relative effect scopes resolve; granted paths must lie under it
 * @param backends the kernel's backend registry, through which an executor that launches (the
 *     child JVM) finds and chooses its backend; the executor never closes it
 * @param settings setting name to value, namespaced by executor id (for example {@code
 *     child-jvm.backend}); unknown keys are ignored by providers
 */
public record ExecutorConfig(Path baseDirectory, Backends backends, Map<String, String> settings) {

  public ExecutorConfig {
    baseDirectory = Objects.requireNonNull(baseDirectory, "baseDirectory").toAbsolutePath().normalize();
    Objects.requireNonNull(backends, "backends");
    settings = Map.copyOf(Objects.requireNonNull(settings, "settings"));
  }

  /** No settings: every provider's defaults. */
  public static ExecutorConfig of(Path baseDirectory, Backends backends) {
    return new ExecutorConfig(baseDirectory, backends, Map.of());
  }

  /** The value of one setting, if present. */
  public Optional<String> get(String key) {
    return Optional.ofNullable(settings.get(key));
  }
}
