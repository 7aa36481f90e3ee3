package dev.capability.backend.process;

import dev.capability.backend.process.internal.ProcessBackend;
import dev.capability.backend.process.internal.SetsidProbe;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * Provides the {@code process} backend: commands run as plain child processes of the JVM. It is an
 * audited execution boundary, not a sandbox: the command has the JVM user's files, network and
 * processes in reach. It takes no settings.
 *
 * <p>On Linux with {@code /proc} it is available; each command then leads its own session when a
 * working util-linux {@code setsid} is found in {@code /usr/bin} or {@code /bin}, which is the one
 * capability it can advertise ({@code SESSION_TERMINATION}).
 */
public final class ProcessBackendProvider implements BackendProvider {

  /** Found by {@link java.util.ServiceLoader}. */
  public ProcessBackendProvider() {}

  @Override
  public String id() {
    return ProcessBackend.ID;
  }

  @Override
  public Availability probe() {
    try {
      String os = System.getProperty("os.name", "unknown");
      if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
        return Availability.unavailable("the process backend needs Linux, this is " + os);
      }
      if (!Files.isReadable(Path.of("/proc/self/stat"))) {
        return Availability.unavailable("the process backend needs /proc, which is not readable");
      }
      return Availability.available("Linux with /proc; audited execution boundary, not a sandbox");
    } catch (RuntimeException e) {
      return Availability.unavailable("probing the process backend failed: " + e);
    }
  }

  @Override
  public ExecutionBackend create(BackendConfig config) {
    Objects.requireNonNull(config, "config");
    Availability availability = probe();
    if (!availability.available()) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE, availability.reason());
    }
    return new ProcessBackend(new SetsidProbe().probe());
  }
}
