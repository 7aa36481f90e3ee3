package dev.capability.backend.docker;

import dev.capability.backend.docker.internal.DockerBackend;
import dev.capability.backend.tck.ExecutionBackendContract;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import dev.capability.workspace.RepositoryWorkspace;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole backend contract suite against the second dockerd ({@link SecondDockerDaemon}),
 * reached over TCP with TLS: a remote daemon that sees nothing of this host, so every spec with a
 * repository carries the workspace the kernel ships ({@link RepositoryWorkspace}). Skipped with the reason where that daemon
 * cannot run, failed instead under {@code CAPABILITY_REQUIRE_BACKENDS=1}.
 */
class RemoteDockerContractTest extends ExecutionBackendContract {
  private static ExecutionBackend backend;

  @Override
  public synchronized ExecutionBackend backend() {
    if (backend == null) {
      backend = DockerBackend.create(SecondDockerDaemon.get().config());
    }
    return backend;
  }

  @Override
  public Optional<ShippedWorkspace> shippedWorkspace(LaunchSpec spec) {
    return Optional.of(
        RepositoryWorkspace.builder(spec.repository().orElseThrow(), "contract-suite-input")
            .writableRoots(spec.writableRoots())
            .protectedPaths(spec.protectedPaths())
            .build());
  }

  @AfterAll
  static synchronized void close() {
    if (backend != null) {
      backend.close();
      backend = null;
    }
  }
}
