package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.archive.PackageContents;
import java.util.Objects;
import java.util.Optional;

/**
 * An inspected package, held in memory: its descriptor and the exact bytes that were verified.
 * Executors run these bytes, never the file on disk again, so that what was inspected is what runs.
 */
public final class CapabilityPackage {
  private final CapabilityDescriptor descriptor;
  private final PackageContents contents;

  CapabilityPackage(CapabilityDescriptor descriptor, PackageContents contents) {
    this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
    this.contents = Objects.requireNonNull(contents, "contents");
  }

  /** The inert description of the package. */
  public CapabilityDescriptor descriptor() {
    return descriptor;
  }

  /** A copy of a verified module's bytes, by normalized path such as {@code lib/hello.jar}. */
  public Optional<byte[]> module(String path) {
    return descriptor.moduleDigests().containsKey(path) ? contents.file(path) : Optional.empty();
  }
}
