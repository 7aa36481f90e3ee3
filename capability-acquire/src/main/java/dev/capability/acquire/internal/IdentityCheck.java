package dev.capability.acquire.internal;

import dev.capability.capability.runtime.CapabilityDescriptor;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.Check;
import dev.capability.acquire.Coordinates;
import dev.capability.kernel.api.CapabilityException;
import java.nio.file.Path;

/**
 * Whether the package declares the identity it was acquired under: its manifest's name must be
 * the artifact id and its version the version. Inspection is inert (nothing is extracted or
 * loaded), and runs only on bytes whose integrity was already verified.
 */
final class IdentityCheck {
  private IdentityCheck() {}

  static Check check(Path staged, Coordinates coordinates) {
    CapabilityDescriptor descriptor;
    try {
      descriptor = CapabilityPackages.open(staged).descriptor();
    } catch (CapabilityException e) {
      return Check.unverified(AcquisitionCodes.IDENTITY_UNCHECKED, "the artifact cannot be inspected as a capability package: " + e.code());
    }
    if (descriptor.name().equals(coordinates.artifact()) && descriptor.version().equals(coordinates.version())) {
      return Check.verified("the manifest declares " + descriptor.name() + " " + descriptor.version() + ", as the coordinates do");
    }
    return Check.failed(
        AcquisitionCodes.IDENTITY_MISMATCH,
        "the manifest declares name " + printable(descriptor.name()) + " version " + printable(descriptor.version())
            + " but the package was acquired as " + coordinates.artifact() + " " + coordinates.version());
  }

  private static String printable(String value) {
    StringBuilder out = new StringBuilder("'");
    value.codePoints().limit(80).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : "?"));
    return out.append('\'').toString();
  }
}
