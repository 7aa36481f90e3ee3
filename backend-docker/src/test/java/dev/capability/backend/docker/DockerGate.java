package dev.capability.backend.docker;

import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;

/**
 * The one docker backend of this test JVM, behind the contract suite's gate. The runtime image is
 * built first, the way a user builds it; when that fails (no daemon, no busybox-static) the gate's
 * probe reports why and the tests are skipped, or fail under {@code CAPABILITY_REQUIRE_BACKENDS=1}.
 */
public final class DockerGate {
  public static final BackendGate GATE;

  static {
    try {
      LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    } catch (BackendUnavailableException e) {
      // The gate's probe names the missing piece; building is retried by nothing else.
    }
    GATE = BackendGate.of(new DockerBackendProvider(), BackendConfig.defaults());
  }

  private DockerGate() {}
}
