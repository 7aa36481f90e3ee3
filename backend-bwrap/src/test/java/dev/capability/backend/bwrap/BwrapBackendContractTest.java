package dev.capability.backend.bwrap;

import dev.capability.backend.tck.BackendGate;
import dev.capability.backend.tck.ExecutionBackendContract;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import org.junit.jupiter.api.AfterAll;

/**
 * The bwrap backend against the backend contract suite: the baseline, and an attack on every
 * capability it advertises. Skipped with the probe's reason where bwrap cannot run, failed instead
 * under {@code CAPABILITY_REQUIRE_BACKENDS=1}.
 */
class BwrapBackendContractTest extends ExecutionBackendContract {
  private static final BackendGate GATE =
      BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @Override
  public ExecutionBackend backend() {
    return GATE.backend();
  }

  @AfterAll
  static void closeBackend() {
    GATE.close();
  }

  /** Filtered egress needs only the relay, which this backend runs wherever it can be built. */
  @Override
  public boolean filteredEgressExpected() {
    return true;
  }
}
