package dev.capability.backend.kubernetes;

import dev.capability.backend.tck.ExecutionBackendContract;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import dev.capability.workspace.RepositoryWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;

/**
 * The kubernetes backend against the backend contract suite, on a real cluster: it runs only when
 * {@code KUBECONFIG} names a readable kubeconfig whose cluster answers, and is skipped with the
 * reason otherwise. Unlike the Docker and Bubblewrap suites it is skipped, not failed, under {@code
 * CAPABILITY_REQUIRE_BACKENDS=1}: no cluster can run on the project's machines or in its CI, so
 * requiring one would fail every CI run (see docs/kubernetes.md).
 */
class KubernetesBackendContractTest extends ExecutionBackendContract {
  private static @Nullable ExecutionBackend backend;

  @Override
  public synchronized ExecutionBackend backend() {
    if (backend == null) {
      String kubeconfig = System.getenv("KUBECONFIG");
      if (kubeconfig == null || kubeconfig.isBlank()) {
        Assumptions.abort("no cluster: KUBECONFIG is not set (the live kubernetes suite runs only against a real cluster)");
      }
      Path file = Path.of(kubeconfig.split(java.io.File.pathSeparator)[0]);
      if (!Files.isReadable(file)) {
        Assumptions.abort("no cluster: KUBECONFIG names " + file + ", which is not a readable file");
      }
      BackendProvider.Availability availability = new KubernetesBackendProvider().probe();
      if (!availability.available()) {
        Assumptions.abort("no cluster: " + availability.reason());
      }
      backend = new KubernetesBackendProvider().create(BackendConfig.defaults());
    }
    return backend;
  }

  /** The backend runs only shipped workspaces: each spec with a repository carries the kernel's. */
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
