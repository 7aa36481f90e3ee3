package dev.capability.junit5;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;

/**
 * A backend that is installed (found with ServiceLoader, from this module's test resources) but
 * never available, as bwrap is on a machine without user namespaces: the seam that lets the
 * tests see the extension skip, or fail, for a missing backend on a machine that has every one.
 */
public final class NeverAvailableBackendProvider implements BackendProvider {
  /** Its id, for {@code @CapabilitySandbox(backend = ...)}. */
  public static final String ID = "never-available";

  /** What its probe says. */
  public static final String REASON = "this test backend is never available";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Availability probe() {
    return Availability.unavailable(REASON);
  }

  @Override
  public ExecutionBackend create(BackendConfig config) {
    throw new BackendUnavailableException("BACKEND_UNAVAILABLE", REASON);
  }
}
