package dev.capability.linux;

import static org.assertj.core.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/**
 * Skips a test with libseccomp's own reason where it cannot be loaded, or fails it instead under
 * {@code CAPABILITY_REQUIRE_BACKENDS=1} (CI installs libseccomp2).
 */
final class LibSeccompGate {
  private LibSeccompGate() {}

  static void requireLibseccomp() {
    SeccompFilter.Availability availability = SeccompFilter.availability();
    if (availability.available()) {
      return;
    }
    if ("1".equals(System.getenv("CAPABILITY_REQUIRE_BACKENDS"))) {
      fail("libseccomp is required (CAPABILITY_REQUIRE_BACKENDS=1): " + availability.reason());
    }
    Assumptions.abort("libseccomp is not usable here: " + availability.reason());
  }
}
