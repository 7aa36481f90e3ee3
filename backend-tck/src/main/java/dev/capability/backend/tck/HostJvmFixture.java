package dev.capability.backend.tck;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.plugin.Plugins;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The host JVM that {@link TerminationContract#theWholeTreeEndsWhenTheHostJvmIsKilled} kills: it
 * creates the backend with the given id through {@link Plugins}, with default settings, and
 * launches one script that never ends by itself. Not API; public only so that a JVM can start it.
 */
public final class HostJvmFixture {
  /** Generous bounds for a loaded machine; the test waits for events, it never measures speed. */
  static final Duration WAIT = Duration.ofSeconds(120);

  private HostJvmFixture() {}

  /**
   * Arguments: the backend id, the repository, the writable root, the script, the marker.
   *
   * @throws IllegalStateException when no provider has the id, or the launch returns at all
   */
  public static void main(String[] args) throws Exception {
    String id = args[0];
    Path repository = Path.of(args[1]);
    Path writable = Path.of(args[2]);
    Path script = Path.of(args[3]).toRealPath();
    BackendProvider provider =
        Plugins.load(BackendProvider.class, BackendProvider::id, HostJvmFixture.class.getClassLoader())
            .get(id);
    if (provider == null) {
      throw new IllegalStateException("no backend provider with id " + id);
    }
    ExecutionBackend backend = provider.create(BackendConfig.defaults());
    PinnedExecutable pinned =
        new PinnedExecutable(
            script,
            Sha256.hex(Files.readAllBytes(script)),
            script.toString(),
            PinnedExecutable.Pinning.PROC_FD);
    backend.launch(
        LaunchSpec.builder(pinned)
            .repository(repository)
            .workingDirectory(repository)
            .writableRoots(List.of(writable))
            .environment(Map.of("PATH", "/usr/bin:/bin", Launches.MARKER_VARIABLE, args[4]))
            .network(NetworkMode.NONE)
            .timeout(Duration.ofHours(1))
            .build());
    throw new IllegalStateException("the launch returned before the host was killed");
  }
}
