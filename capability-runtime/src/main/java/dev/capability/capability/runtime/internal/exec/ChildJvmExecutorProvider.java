package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.Executor;
import dev.capability.capability.runtime.ExecutorConfig;
import dev.capability.capability.runtime.ExecutorProvider;
import dev.capability.kernel.api.CapabilityException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Provides the {@code child-jvm} executor on the kernel's backend registry of the {@link
 * ExecutorConfig}. Settings, both optional: {@value #BACKEND} names the backend (otherwise the
 * strongest available sandbox that supplies {@link ChildJvmExecutor#REQUIRED_ISOLATION} is chosen
 * when the executor is created), {@value #ALLOW_UNISOLATED} {@code true} lets a named {@code
 * process} backend run (it is no boundary), {@value #EGRESS_PRIVATE_ADDRESS_NAMES} lists the names
 * (comma-separated) the egress proxy lets resolve to loopback or private addresses.
 */
public final class ChildJvmExecutorProvider implements ExecutorProvider {
  /** The setting that names the backend. */
  public static final String BACKEND = ChildJvmExecutor.ID + ".backend";
  /** The setting that allows the unisolated {@code process} backend when it is named. */
  public static final String ALLOW_UNISOLATED = ChildJvmExecutor.ID + ".allowUnisolated";
  /** The setting that lists the operator's private-address names, comma-separated. */
  public static final String EGRESS_PRIVATE_ADDRESS_NAMES = ChildJvmExecutor.ID + ".egressPrivateAddressNames";

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
   *     that is neither {@code true} nor {@code false}, or an {@value #EGRESS_PRIVATE_ADDRESS_NAMES}
   *     entry that is not a lower-case DNS name
   */
  @Override
  public Executor create(ExecutorConfig config) {
    boolean allowUnisolated = allowUnisolated(config);
    Set<String> privateAddressNames = privateAddressNames(config);
    Optional<String> backend = config.get(BACKEND);
    ChildJvmExecutor executor =
        backend.isPresent()
            ? ChildJvmExecutor.named(config.backends(), false, backend.get(), allowUnisolated, config.baseDirectory(), Optional.empty())
            : ChildJvmExecutor.choosing(config.backends(), false, config.baseDirectory(), Optional.empty());
    return executor.withEgress(Optional.empty(), privateAddressNames);
  }

  private static Set<String> privateAddressNames(ExecutorConfig config) {
    Set<String> names = new TreeSet<>();
    for (String name : config.get(EGRESS_PRIVATE_ADDRESS_NAMES).orElse("").split(",", -1)) {
      String trimmed = name.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      try {
        ChildJvmExecutor.privateAddressName(trimmed);
      } catch (IllegalArgumentException e) {
        throw new CapabilityException(
            CapabilityCodes.EXECUTOR_SETTING_INVALID, EGRESS_PRIVATE_ADDRESS_NAMES + " holds '" + trimmed + "': " + e.getMessage());
      }
      names.add(trimmed);
    }
    return names;
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
