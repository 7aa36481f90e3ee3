package dev.capability.kernel.core.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** This process's effective uid, as Linux shows it: the owner of {@code /proc/self}. */
public final class ProcessUid {
  private ProcessUid() {}

  /**
   * The effective uid of this JVM; the JDK has no call for it.
   *
   * @throws IOException when {@code /proc/self} cannot be read
   */
  public static int effective() throws IOException {
    Integer known = effective;
    if (known == null) {
      known = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      effective = known;
    }
    return known;
  }

  /** Read once: the JVM never changes its own uid (it has no call to), so the answer stands. */
  private static volatile @Nullable Integer effective;
}
