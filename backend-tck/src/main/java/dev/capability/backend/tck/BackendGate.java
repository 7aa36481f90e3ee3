package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.fail;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * Creates a backend for tests once, if it can run on this machine. When its probe says it cannot
 * (no bwrap, no Docker daemon), every test that asks for it is skipped with the probe's reason;
 * with the environment variable {@value #REQUIRE_VARIABLE} set to {@code 1} (as in CI, where every
 * backend is installed) it fails instead, so a broken installation cannot pass as skipped tests.
 *
 * <pre>{@code
 * class BwrapBackendContractTest extends ExecutionBackendContract {
 *   private static final BackendGate GATE =
 *       BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
 *
 *   @Override
 *   public ExecutionBackend backend() {
 *     return GATE.backend();
 *   }
 *
 *   @AfterAll
 *   static void close() {
 *     GATE.close();
 *   }
 * }
 * }</pre>
 *
 * Thread-safe.
 */
public final class BackendGate implements AutoCloseable {
  /** Set to {@code 1} to make an unavailable backend fail its tests instead of skipping them. */
  public static final String REQUIRE_VARIABLE = "CAPABILITY_REQUIRE_BACKENDS";

  private final BackendProvider provider;
  private final BackendConfig config;
  private final boolean required;
  private BackendProvider.@Nullable Availability availability;
  private @Nullable ExecutionBackend backend;

  BackendGate(BackendProvider provider, BackendConfig config, boolean required) {
    this.provider = Objects.requireNonNull(provider, "provider");
    this.config = Objects.requireNonNull(config, "config");
    this.required = required;
  }

  /** A gate for {@code provider}, required when {@value #REQUIRE_VARIABLE} is {@code 1}. */
  public static BackendGate of(BackendProvider provider, BackendConfig config) {
    return new BackendGate(provider, config, "1".equals(System.getenv(REQUIRE_VARIABLE)));
  }

  /**
   * The backend, created on first use after a successful probe.
   *
   * @throws org.opentest4j.TestAbortedException when the backend cannot run here, so the calling
   *     test is skipped
   * @throws AssertionError instead, when backends are required
   */
  public synchronized ExecutionBackend backend() {
    if (availability == null) {
      availability = provider.probe();
    }
    if (!availability.available()) {
      String reason =
          "backend " + provider.id() + " is not available here: " + availability.reason();
      if (required) {
        fail(reason + " (" + REQUIRE_VARIABLE + "=1 requires every backend)");
      }
      Assumptions.abort(reason + " (set " + REQUIRE_VARIABLE + "=1 to fail instead)");
    }
    if (backend == null) {
      backend = provider.create(config);
    }
    return backend;
  }

  /** Closes the backend if it was created. */
  @Override
  public synchronized void close() {
    if (backend != null) {
      backend.close();
      backend = null;
    }
  }
}
