package dev.capability.backend.process;

import dev.capability.backend.tck.ExecutionBackendContract;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import org.junit.jupiter.api.AfterAll;

/**
 * The process backend against the backend contract suite. It advertises at most
 * SESSION_TERMINATION, so every isolation attack is expected to succeed here; the suite checks that
 * the backend claims nothing those attacks disprove.
 */
class ProcessBackendContractTest extends ExecutionBackendContract {
  private static final ExecutionBackend BACKEND =
      new ProcessBackendProvider().create(BackendConfig.defaults());

  @Override
  public ExecutionBackend backend() {
    return BACKEND;
  }

  @AfterAll
  static void closeBackend() {
    BACKEND.close();
  }
}
