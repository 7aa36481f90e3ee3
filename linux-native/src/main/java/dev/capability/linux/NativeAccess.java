package dev.capability.linux;

import dev.capability.linux.internal.NativeLibraries;
import java.util.Optional;

/** Whether this JVM can make the project's native calls. */
public final class NativeAccess {
  private NativeAccess() {}

  /** Why native calls cannot be made here, or empty when they can. */
  public static Optional<String> problem() {
    try {
      NativeLibraries.libc();
      return Optional.empty();
    } catch (NativeCallException e) {
      return Optional.of(e.getMessage());
    }
  }
}
