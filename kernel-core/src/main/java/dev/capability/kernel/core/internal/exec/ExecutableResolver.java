package dev.capability.kernel.core.internal.exec;

import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_NOT_ABSOLUTE;
import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_NOT_EXECUTABLE;
import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_NOT_FOUND;
import static dev.capability.kernel.api.policy.PolicyCodes.PATH_SHADOWING;
import static dev.capability.kernel.api.policy.PolicyCodes.REPOSITORY_EXECUTABLE;

import dev.capability.kernel.api.Decision;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Stage 4 of the pipeline: finds the file argv[0] names, on the sanitized {@code PATH}, and
 * refuses executables and {@code PATH} entries inside the target repository (a command the agent
 * could have planted) unless the policy allows repository executables.
 */
public final class ExecutableResolver {
  /** Used when the sanitized environment has no {@code PATH}. */
  public static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

  static final String LAYER = "builtin";

  /** Where argv[0] led: a canonical file, or a denial. */
  public record Resolution(Optional<Path> executable, Decision decision) {
    static Resolution found(Path executable) {
      return new Resolution(Optional.of(executable), Decision.allow(LAYER, "executable.resolve"));
    }

    static Resolution denied(String code, String rule, String message) {
      return new Resolution(Optional.empty(), Decision.deny(code, LAYER, rule, 0, message));
    }
  }

  /**
   * Resolves argv[0].
   *
   * @param argv0 the executable as the command names it
   * @param searchPath the {@code PATH} the command will get, or null for {@link #DEFAULT_PATH}
   * @param repository the canonical target repository, if any
   * @param allowRepositoryExecutables the policy's switch for executables inside the repository
   */
  public Resolution resolve(
      String argv0, String searchPath, Optional<Path> repository, boolean allowRepositoryExecutables) {
    boolean guardRepository = repository.isPresent() && !allowRepositoryExecutables;
    Path candidate;
    if (argv0.indexOf('/') >= 0) {
      Path given;
      try {
        given = Path.of(argv0);
      } catch (InvalidPathException e) {
        return Resolution.denied(EXECUTABLE_NOT_FOUND, "executable.path", "argv[0] is not a valid path: " + argv0);
      }
      if (!given.isAbsolute()) {
        return Resolution.denied(EXECUTABLE_NOT_ABSOLUTE, "executable.path",
            "argv[0] '" + argv0 + "' is a relative path; name an executable by bare name or by absolute canonical path");
      }
      candidate = given;
    } else {
      String path = searchPath == null ? DEFAULT_PATH : searchPath;
      Optional<Resolution> shadowing = shadowing(path, repository, guardRepository);
      if (shadowing.isPresent()) {
        return shadowing.get();
      }
      Optional<Path> found = search(argv0, path);
      if (found.isEmpty()) {
        return Resolution.denied(EXECUTABLE_NOT_FOUND, "executable.path",
            "'" + argv0 + "' was not found on PATH " + path);
      }
      candidate = found.get();
    }
    Path canonical;
    try {
      canonical = candidate.toRealPath();
    } catch (IOException e) {
      return Resolution.denied(EXECUTABLE_NOT_FOUND, "executable.path", "'" + argv0 + "' does not exist");
    }
    if (!Files.isRegularFile(canonical) || !Files.isExecutable(canonical)) {
      return Resolution.denied(EXECUTABLE_NOT_EXECUTABLE, "executable.path",
          "'" + canonical + "' is not an executable regular file");
    }
    if (guardRepository && canonical.startsWith(repository.get())) {
      return Resolution.denied(REPOSITORY_EXECUTABLE, "allowRepositoryExecutables",
          "'" + argv0 + "' resolves to " + canonical + " inside the target repository; the policy does not allow repository executables");
    }
    return Resolution.found(canonical);
  }

  private static Optional<Resolution> shadowing(String path, Optional<Path> repository, boolean guardRepository) {
    for (String entry : path.split(":", -1)) {
      if (entry.isEmpty() || !entry.startsWith("/")) {
        return Optional.of(Resolution.denied(PATH_SHADOWING, "environment.PATH",
            "PATH entry '" + entry + "' is relative (an empty entry means the working directory); the kernel resolves only through absolute entries"));
      }
      if (guardRepository && canonicalOrSelf(Path.of(entry)).startsWith(repository.get())) {
        return Optional.of(Resolution.denied(PATH_SHADOWING, "environment.PATH",
            "PATH entry '" + entry + "' is inside the target repository and could shadow system executables; the policy does not allow repository executables"));
      }
    }
    return Optional.empty();
  }

  private static Path canonicalOrSelf(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }

  private static Optional<Path> search(String name, String path) {
    for (String entry : path.split(":")) {
      Path file;
      try {
        file = Path.of(entry).resolve(name);
      } catch (InvalidPathException e) {
        continue;
      }
      if (Files.isRegularFile(file) && Files.isExecutable(file)) {
        return Optional.of(file);
      }
    }
    return Optional.empty();
  }
}
