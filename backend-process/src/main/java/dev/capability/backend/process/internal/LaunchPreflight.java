package dev.capability.backend.process.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks, before anything is started, that a spec can be launched exactly as written.
 *
 * <p>Two kinds of failure are caught here. First, an executable or working directory that cannot be
 * used: once {@code setsid} runs, a failed {@code execve} of the command would only show as
 * setsid's exit status 126 or 127, indistinguishable from a command that exits so, so the common
 * causes (ENOENT, EACCES, not a regular file, bad directory) are named here instead. Second,
 * strings the JDK would silently change: the JDK encodes argv and environment with the platform
 * charset (the default charset on JDK 17, {@code sun.jnu.encoding} on later JDKs) and replaces what
 * it cannot encode with {@code '?'}, so a command other than the one authorized would run. NUL
 * cannot be passed at all.
 */
final class LaunchPreflight {
  private static final List<Charset> PROCESS_CHARSETS = processCharsets();

  private LaunchPreflight() {}

  /** The charsets a string must encode in to reach the command unchanged. */
  static List<Charset> processCharsets() {
    Set<Charset> charsets = new LinkedHashSet<>();
    charsets.add(Charset.defaultCharset());
    String jnu = System.getProperty("sun.jnu.encoding");
    if (jnu != null) {
      try {
        charsets.add(Charset.forName(jnu));
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        // The JDK falls back to the default charset for an unusable name, already checked.
      }
    }
    return List.copyOf(charsets);
  }

  /**
   * @throws LaunchFailedException naming the executable and what is wrong
   */
  static void check(LaunchSpec spec) {
    String execPath = spec.executable().execPath();
    String name = describe(spec);
    requireEncodable(name, "exec path", execPath);
    List<String> arguments = spec.arguments();
    for (int i = 0; i < arguments.size(); i++) {
      requireEncodable(name, "argument " + (i + 1), arguments.get(i));
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
      requireEncodable(name, "environment variable name '" + key + "'", key);
      requireEncodable(name, "value of environment variable " + key, variable.getValue());
    }
    requireEncodable(name, "working directory", spec.workingDirectory().toString());
    requireExecutable(name, execPath);
    requireDirectory(name, spec.workingDirectory());
  }

  private static void requireExecutable(String name, String execPath) {
    if (!execPath.startsWith("/")) {
      throw new LaunchFailedException("cannot launch " + name + ": the exec path must be absolute");
    }
    Path path = Path.of(execPath);
    BasicFileAttributes attributes = attributes(name, "executable", path);
    if (!attributes.isRegularFile()) {
      throw new LaunchFailedException("cannot launch " + name + ": not a regular file");
    }
    if (!Files.isExecutable(path)) {
      throw new LaunchFailedException(
          "cannot launch "
              + name
              + ": permission denied (EACCES): not executable by this user, "
              + "or on a filesystem mounted noexec");
    }
  }

  private static void requireDirectory(String name, Path directory) {
    BasicFileAttributes attributes = attributes(name, "working directory " + directory, directory);
    if (!attributes.isDirectory()) {
      throw new LaunchFailedException(
          "cannot launch " + name + ": working directory " + directory + " is not a directory");
    }
    if (!Files.isExecutable(directory)) {
      throw new LaunchFailedException(
          "cannot launch "
              + name
              + ": working directory "
              + directory
              + " cannot be entered (EACCES)");
    }
  }

  private static BasicFileAttributes attributes(String name, String what, Path path) {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new LaunchFailedException(
          "cannot launch " + name + ": " + what + " does not exist (ENOENT)", e);
    } catch (AccessDeniedException e) {
      throw new LaunchFailedException(
          "cannot launch " + name + ": " + what + " is not reachable, permission denied (EACCES)",
          e);
    } catch (IOException e) {
      throw new LaunchFailedException("cannot launch " + name + ": " + what + ": " + e, e);
    }
  }

  private static void requireEncodable(String name, String what, String value) {
    if (value.indexOf('\0') >= 0) {
      throw new LaunchFailedException(
          "cannot launch "
              + name
              + ": "
              + what
              + " contains a NUL character, which no process "
              + "can receive");
    }
    for (Charset charset : PROCESS_CHARSETS) {
      if (!charset.newEncoder().canEncode(value)) {
        throw new LaunchFailedException(
            "cannot launch "
                + name
                + ": "
                + what
                + " cannot be encoded exactly in the platform "
                + "charset "
                + charset
                + "; run the JVM with a UTF-8 locale (for example "
                + "LANG=C.UTF-8) so the command receives exactly the authorized strings");
      }
    }
  }

  /** The executable as a user knows it, plus the path actually executed when it differs. */
  static String describe(LaunchSpec spec) {
    String path = spec.executable().path().toString();
    String execPath = spec.executable().execPath();
    return path.equals(execPath) ? path : path + " (exec path " + execPath + ")";
  }
}
