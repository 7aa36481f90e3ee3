package dev.capability.linux.internal;

import com.sun.jna.Native;
import dev.capability.linux.NativeCallException;

/** Loads the C library once, and turns a host without native access into a clear error. */
public final class NativeLibraries {
  private static volatile LibC libc;

  private NativeLibraries() {}

  /**
   * The bound C library.
   *
   * @throws NativeCallException {@link NativeCallException#NATIVE_UNAVAILABLE} when JNA or the C
   *     library cannot be loaded here
   */
  public static LibC libc() {
    LibC bound = libc;
    if (bound == null) {
      synchronized (NativeLibraries.class) {
        if (libc == null) {
          libc = load();
        }
        bound = libc;
      }
    }
    return bound;
  }

  private static LibC load() {
    if (!System.getProperty("os.name", "").equals("Linux")) {
      throw new NativeCallException(
          NativeCallException.NATIVE_UNAVAILABLE,
          "native calls are made on Linux only; this is " + System.getProperty("os.name"));
    }
    try {
      return Native.load("c", LibC.class);
    } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
      throw new NativeCallException(
          NativeCallException.NATIVE_UNAVAILABLE,
          "cannot load the C library through JNA: "
              + e.getMessage()
              + "; JNA needs its native part (jnidispatch) for this platform and a writable"
              + " jna.tmpdir");
    }
  }
}
