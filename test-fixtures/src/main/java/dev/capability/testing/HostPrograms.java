package dev.capability.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The host's own programs, as fixtures run them: looked up in {@code /usr/bin} and then {@code
 * /bin} only, never in a {@code PATH} a test or its environment could change.
 */
public final class HostPrograms {
  private static final List<String> DIRECTORIES = List.of("/usr/bin", "/bin");

  private HostPrograms() {}

  /** The first executable file named {@code name} in {@code /usr/bin} or {@code /bin}, if any. */
  public static Optional<Path> lookup(String name) {
    for (String directory : DIRECTORIES) {
      Path candidate = Path.of(directory, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * The first executable file named {@code name} in {@code /usr/bin} or {@code /bin}.
   *
   * @throws IllegalStateException when neither holds one, naming the program
   */
  public static Path find(String name) {
    return lookup(name)
        .orElseThrow(() -> new IllegalStateException("this test needs " + name + " in /usr/bin or /bin"));
  }
}
