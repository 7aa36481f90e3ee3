package dev.capability.capability.runtime;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import org.junit.jupiter.api.AfterAll;

/** {@link FilteredEgressContract} under Bubblewrap. */
class ChildJvmFilteredEgressBwrapTest extends FilteredEgressContract {
  private static final BackendGate GATE = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @Override
  ExecutionBackend gatedBackend() {
    return GATE.backend();
  }

  @AfterAll
  static void close() {
    GATE.close();
  }
}
