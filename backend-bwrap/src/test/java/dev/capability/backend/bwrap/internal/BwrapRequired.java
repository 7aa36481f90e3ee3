package dev.capability.backend.bwrap.internal;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips a test class, with the probe's reason, when sandboxes cannot run on this machine; fails it
 * instead when the environment variable {@code CAPABILITY_REQUIRE_BACKENDS=1} is set (CI), so a
 * missing bwrap can never pass silently there.
 */
public final class BwrapRequired implements BeforeAllCallback {
  static final String REQUIRE = "CAPABILITY_REQUIRE_BACKENDS";

  private static final Object LOCK = new Object();
  private static Optional<String> unavailable;

  @Override
  public void beforeAll(ExtensionContext context) {
    Optional<String> reason = reason();
    if (reason.isEmpty()) {
      return;
    }
    if ("1".equals(System.getenv(REQUIRE))) {
      fail("bwrap backend required (" + REQUIRE + "=1) but unavailable: " + reason.get());
    }
    Assumptions.abort("bwrap backend unavailable here: " + reason.get());
  }

  /** Why sandboxes cannot run here, probed once per JVM; empty when they can. */
  static Optional<String> reason() {
    synchronized (LOCK) {
      if (unavailable == null) {
        BwrapBackend.ProbeOutcome outcome = BwrapBackend.probeDefaults();
        unavailable = outcome.available() ? Optional.empty() : Optional.of(outcome.description());
      }
      return unavailable;
    }
  }
}
