package dev.capability.backend.docker.internal;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** A host JVM that launches a long container and is then killed by {@link LeakSweepTest}. */
public final class LeakedContainerMain {
  private LeakedContainerMain() {}

  public static void main(String[] args) throws Exception {
    Path sleep = Path.of("/usr/bin/sleep").toRealPath();
    PinnedExecutable executable =
        new PinnedExecutable(
            sleep,
            Sha256.hex(Files.readAllBytes(sleep)),
            sleep.toString(),
            PinnedExecutable.Pinning.PROC_FD);
    try (ExecutionBackend backend = new DockerBackendProvider().create(BackendConfig.defaults())) {
      backend.launch(
          LaunchSpec.builder(executable)
              .arguments(java.util.List.of("600"))
              .workingDirectory(Path.of("/usr"))
              .timeout(Duration.ofSeconds(600))
              .build());
    }
  }
}
