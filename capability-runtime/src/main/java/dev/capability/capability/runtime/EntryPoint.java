package dev.capability.capability.runtime;

import java.util.Objects;

/**
 * Where a capability starts: a module of the package (a normalized path inside the package, such
 * as {@code lib/hello.jar}, from the manifest's {@code ./lib/hello.jar}) and the binary name of a
 * class in it that implements {@link dev.capability.capability.api.Capability}.
 */
public record EntryPoint(String module, String className) {
  public EntryPoint {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(className, "className");
  }
}
