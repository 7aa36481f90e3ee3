package dev.capability.backend.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ProcessBackendProviderTest {

  @Test
  void isFoundByTheServiceLoader() {
    assertThat(ServiceLoader.load(BackendProvider.class).stream().map(ServiceLoader.Provider::get))
        .filteredOn(p -> p.id().equals("process"))
        .singleElement()
        .isInstanceOf(ProcessBackendProvider.class);
  }

  @Test
  void isAvailableOnLinuxWithProc() {
    BackendProvider.Availability availability = new ProcessBackendProvider().probe();

    assertThat(availability.available()).as(availability.reason()).isTrue();
    assertThat(availability.reason()).contains("not a sandbox");
  }

  @Test
  void createsABackendThatClaimsNoIsolationBeyondSessionsAndItsOwnBounds() {
    try (ExecutionBackend backend = new ProcessBackendProvider().create(BackendConfig.defaults())) {
      assertThat(backend.id()).isEqualTo("process");
      // The file size limit and the write budget bound what the command does; they isolate nothing.
      assertThat(backend.capabilities())
          .isSubsetOf(
              IsolationCapability.SESSION_TERMINATION,
              IsolationCapability.FILE_SIZE_LIMIT,
              IsolationCapability.WRITE_BUDGET);
      Map<String, String> diagnostics = backend.diagnostics();
      assertThat(diagnostics.get("boundary")).contains("not a sandbox");
      assertThat(diagnostics)
          .containsKeys("SESSION_TERMINATION", "TREE_TERMINATION", "NETWORK_NAMESPACE");
    }
  }
}
