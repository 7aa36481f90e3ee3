package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks that every string of a spec reaches the sandbox exactly. The JDK encodes argv with the
 * platform charset ({@code sun.jnu.encoding}, the default charset on JDK 17) and silently replaces
 * what it cannot encode with {@code '?'}; bwrap's argument file is encoded with the same charset so
 * paths keep their bytes. A string that cannot be encoded exactly, or holds NUL, is refused rather
 * than changed.
 */
final class LaunchStrings {
  private static final List<Charset> CHARSETS = charsets();

  private LaunchStrings() {}

  /** The charset bwrap's argument file is written in: the one the JDK uses for paths and argv. */
  static Charset charset() {
    return CHARSETS.get(CHARSETS.size() - 1);
  }

  /**
   * @throws LaunchFailedException naming the first string that cannot be passed exactly
   */
  static void check(LaunchSpec spec) {
    String name = spec.executable().path().toString();
    require(name, "executable path", name);
    List<String> arguments = spec.arguments();
    for (int i = 0; i < arguments.size(); i++) {
      require(name, "argument " + (i + 1), arguments.get(i));
    }
    for (Map.Entry<String, String> variable : spec.environment().entrySet()) {
      String key = variable.getKey();
      if (key.isEmpty() || key.indexOf('=') >= 0) {
        throw new LaunchFailedException(
            "cannot launch "
                + name
                + ": environment variable name '"
                + key
                + "' is empty or contains '='");
      }
      require(name, "environment variable name '" + key + "'", key);
      // The value is never quoted: it may be a secret.
      require(name, "the value of environment variable " + key, variable.getValue());
    }
    List<Path> paths = new ArrayList<>();
    paths.add(spec.workingDirectory());
    spec.repository().ifPresent(paths::add);
    paths.addAll(spec.writableRoots());
    paths.addAll(spec.protectedPaths());
    for (Path path : paths) {
      require(name, "path " + path, path.toString());
    }
  }

  private static void require(String name, String what, String value) {
    if (value.indexOf('\0') >= 0) {
      throw new LaunchFailedException(
          "cannot launch "
              + name
              + ": "
              + what
              + " contains a NUL character, which no process can"
              + " receive");
    }
    for (Charset charset : CHARSETS) {
      if (!charset.newEncoder().canEncode(value)) {
        throw new LaunchFailedException(
            "cannot launch "
                + name
                + ": "
                + what
                + " cannot be encoded exactly in the platform"
                + " charset "
                + charset
                + "; run the JVM with a UTF-8 locale (for example"
                + " LANG=C.UTF-8)");
      }
    }
  }

  private static List<Charset> charsets() {
    List<Charset> charsets = new ArrayList<>();
    charsets.add(Charset.defaultCharset());
    String jnu = System.getProperty("sun.jnu.encoding");
    if (jnu != null) {
      try {
        Charset platform = Charset.forName(jnu);
        if (!charsets.contains(platform)) {
          charsets.add(platform);
        }
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        // The JDK then falls back to the default charset, already listed.
      }
    }
    return List.copyOf(charsets);
  }
}
