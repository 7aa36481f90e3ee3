package dev.capability.linux;

import dev.capability.testing.RequiredBackends;

/**
 * Skips a test with libseccomp's own reason where it cannot be loaded, or fails it instead under
 * {@code CAPABILITY_REQUIRE_BACKENDS=1} (CI installs libseccomp2).
 */
final class LibSeccompGate {
  private LibSeccompGate() {}

  static void requireLibseccomp() {
    SeccompFilter.Availability availability = SeccompFilter.availability();
    if (!availability.available()) {
      RequiredBackends.skipOrFail("libseccomp is not usable here: " + availability.reason());
    }
  }
}
