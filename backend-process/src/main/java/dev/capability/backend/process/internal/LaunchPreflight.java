package dev.capability.backend.process.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Checks, before anything is started, that a spec can be launched exactly as written.
 *
 * <p>Two kinds of failure are caught here. First, strings the JDK would silently change or cannot
 * pass, which {@link LaunchSpec#requireExactStrings(String)} refuses. Second, an executable or
 * working directory that cannot be used: once {@code setsid} runs, a failed {@code execve} of the
 * command would only show as setsid's exit status 126 or 127, indistinguishable from a command that
 * exits so, so the common causes (ENOENT, EACCES, not a regular file, bad directory) are named here
 * instead.
 */
final class LaunchPreflight {
  private LaunchPreflight() {}

  /**
   * @throws LaunchFailedException naming the executable and what is wrong
   */
  static void check(LaunchSpec spec) {
    String name = describe(spec);
    spec.requireExactStrings(name);
    requireExecutable(name, spec.executable().execPath());
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

  /** The executable as a user knows it, plus the path actually executed when it differs. */
  static String describe(LaunchSpec spec) {
    String path = spec.executable().path().toString();
    String execPath = spec.executable().execPath();
    return path.equals(execPath) ? path : path + " (exec path " + execPath + ")";
  }
}
