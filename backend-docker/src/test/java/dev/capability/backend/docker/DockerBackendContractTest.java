package dev.capability.backend.docker;

import dev.capability.backend.tck.ExecutionBackendContract;
import dev.capability.kernel.api.backend.ExecutionBackend;

/**
 * The docker backend against the backend contract suite: the baseline, and an attack on every
 * capability it advertises. Skipped with the probe's reason where no daemon runs, failed instead
 * under {@code CAPABILITY_REQUIRE_BACKENDS=1}. The backend is shared with the other test classes
 * of this JVM and closed with it.
 */
class DockerBackendContractTest extends ExecutionBackendContract {

  @Override
  public ExecutionBackend backend() {
    return DockerGate.GATE.backend();
  }

  /** Filtered egress needs only the relay, which this backend runs wherever it can be built. */
  @Override
  public boolean filteredEgressExpected() {
    return true;
  }
}
