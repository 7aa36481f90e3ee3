package dev.capability.backend.bwrap;

import dev.capability.backend.tck.BackendGate;
import dev.capability.backend.tck.ResourceContract;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;

/**
 * The resource attacks of the contract suite against a bwrap backend with small memory and process
 * limits, so the fork bomb, the allocation and the files in {@code /tmp} run too (the default
 * configuration has no memory limit). Where run cgroups cannot be made here the gate skips, or
 * fails under {@code CAPABILITY_REQUIRE_BACKENDS=1}.
 */
class BwrapResourceContractTest implements ResourceContract {
  private static final BackendGate GATE =
      BackendGate.of(
          new BwrapBackendProvider(),
          new BackendConfig(Map.of("bwrap.limit.memory", "64M", "bwrap.limit.pids", "64")));

  @Override
  public ExecutionBackend backend() {
    return GATE.backend();
  }

  @Override
  public OptionalLong processLimit() {
    return OptionalLong.of(64);
  }

  @Override
  public OptionalLong memoryLimitBytes() {
    return OptionalLong.of(64L << 20);
  }

  @AfterAll
  static void closeBackend() {
    GATE.close();
  }
}
