package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.Executor;
import dev.capability.capability.runtime.ExecutorConfig;
import dev.capability.capability.runtime.ExecutorProvider;
import dev.capability.kernel.api.CapabilityException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Provides the {@code child-jvm} executor on the kernel's backend registry of the {@link
 * ExecutorConfig}. Settings, both optional: {@value #BACKEND} names the backend (otherwise the
 * strongest available sandbox that supplies {@link ChildJvmExecutor#REQUIRED_ISOLATION} is chosen
 * when the executor is created), {@value #ALLOW_UNISOLATED} {@code true} lets a named {@code
 * process} backend run (it is no boundary).
 */
public final class ChildJvmExecutorProvider implements ExecutorProvider {
  /** The setting that names the backend. */
  public static final String BACKEND = ChildJvmExecutor.ID + ".backend";
  /** The setting that allows the unisolated {@code process} backend when it is named. */
  public static final String ALLOW_UNISOLATED = ChildJvmExecutor.ID + ".allowUnisolated";

  @Override
  public String id() {
    return ChildJvmExecutor.ID;
  }

  /** Whether this JVM has the {@code java} launcher the child is started with; backends are probed when it is created. */
  @Override
  public Availability probe() {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return Files.isExecutable(java)
        ? Availability.available("a fresh JVM (" + java + ") launched through the kernel")
        : Availability.unavailable("this JVM has no launcher at " + java + " to start the child JVM with");
  }

  /**
   * @throws dev.capability.kernel.api.BackendUnavailableException {@code ISOLATION_UNAVAILABLE}
   *     when no backend is named and no available sandbox fits
   * @throws CapabilityException {@code EXECUTOR_SETTING_INVALID} for an {@value #ALLOW_UNISOLATED}
   *     that is neither {@code true} nor {@code false}
   */
  @Override
  public Executor create(ExecutorConfig config) {
    boolean allowUnisolated = allowUnisolated(config);
    Optional<String> backend = config.get(BACKEND);
    if (backend.isPresent()) {
      return ChildJvmExecutor.named(config.backends(), false, backend.get(), allowUnisolated, config.baseDirectory(), Optional.empty());
    }
    return ChildJvmExecutor.choosing(config.backends(), false, config.baseDirectory(), Optional.empty());
  }

  private static boolean allowUnisolated(ExecutorConfig config) {
    String value = config.get(ALLOW_UNISOLATED).orElse("false");
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new CapabilityException(
          CapabilityCodes.EXECUTOR_SETTING_INVALID, ALLOW_UNISOLATED + " must be true or false, not '" + value + "'");
    };
  }
}
