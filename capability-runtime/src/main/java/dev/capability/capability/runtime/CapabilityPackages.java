package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.archive.ArchiveLimits;
import dev.capability.capability.runtime.internal.archive.PackageContents;
import dev.capability.capability.runtime.internal.archive.PackageReader;
import dev.capability.capability.runtime.internal.inspect.PackageInspector;
import dev.capability.capability.runtime.internal.manifest.Manifest;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Opens and inspects capability packages: a directory, a zip or jar, or a gzip-compressed tar,
 * with {@code capability.json} at its root.
 *
 * <p>Inspection is inert. The package is read into memory under strict limits, every entry name
 * and archive structure is checked, the manifest is parsed strictly, module bytes are checked
 * against their integrity, and class files are read as bytes for the effect scan. No class from
 * the package is ever loaded into this JVM and nothing is extracted to disk.
 */
public final class CapabilityPackages {
  private CapabilityPackages() {}

  /**
   * Reads and inspects the package at {@code path}.
   *
   * @throws PackageRefusedException with one of the {@link CapabilityCodes} when anything about the
   *     package is ambiguous, malformed, or inconsistent with its manifest
   */
  public static CapabilityPackage open(Path path) {
    Objects.requireNonNull(path, "path");
    PackageContents contents = PackageReader.read(path, ArchiveLimits.DEFAULT);
    Manifest manifest = PackageInspector.inspect(contents, ArchiveLimits.DEFAULT);
    CapabilityDescriptor descriptor =
        new CapabilityDescriptor(
            manifest.name(),
            manifest.version(),
            manifest.entry(),
            manifest.modules(),
            contents.digest(),
            manifest.effects(),
            manifest.inputSchema(),
            manifest.outputSchema(),
            manifest.hooks());
    return new CapabilityPackage(descriptor, contents);
  }
}
