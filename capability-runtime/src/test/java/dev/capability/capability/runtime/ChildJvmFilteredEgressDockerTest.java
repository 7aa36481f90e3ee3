package dev.capability.capability.runtime;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link FilteredEgressContract} in a Docker container, where the proxy's server is on the host's
 * loopback, which the container never reaches but through the proxy.
 */
class ChildJvmFilteredEgressDockerTest extends FilteredEgressContract {
  private static final BackendGate GATE = BackendGate.of(new DockerBackendProvider(), BackendConfig.defaults());

  @BeforeAll
  static void image() {
    try {
      LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    } catch (BackendUnavailableException e) {
      // The gate's probe says what is missing: the test skips, or fails when backends are required.
    }
  }

  @Override
  ExecutionBackend gatedBackend() {
    return GATE.backend();
  }

  @AfterAll
  static void close() {
    GATE.close();
  }
}
