package dev.capability.backend.support;

import dev.capability.kernel.api.BackendUnavailableException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This host's C compiler, used to build the small programs the backends put into sandboxes (the
 * Docker image's entrypoint {@code ck-launch}, the {@link EgressRelay}) as static executables, so
 * that they run whatever C library a sandbox shows. Thread-safe.
 */
public final class StaticCompiler {
  /** Where the compiler is looked for, in order; never through {@code PATH}. */
  public static final List<Path> CANDIDATES = List.of(Path.of("/usr/bin/gcc"), Path.of("/usr/bin/cc"));

  /** What to install when compiling fails, for messages. */
  public static final String INSTALL_HINT =
      "it needs gcc and the C library's static archive: apt-get install gcc libc6-dev";

  private static final Logger LOG = LoggerFactory.getLogger(StaticCompiler.class);

  private final Path compiler;

  /** @param compiler a C compiler that links statically ({@code gcc} with {@code libc.a}) */
  public StaticCompiler(Path compiler) {
    this.compiler = Objects.requireNonNull(compiler, "compiler");
  }

  /** The first of {@link #CANDIDATES} that is a regular file (by its real path), if any. */
  public static Optional<StaticCompiler> onThisHost() {
    for (Path candidate : CANDIDATES) {
      try {
        Path real = candidate.toRealPath();
        if (Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS) && Files.isExecutable(real)) {
          return Optional.of(new StaticCompiler(real));
        }
      } catch (IOException e) {
        // Not here; try the next one.
      }
    }
    return Optional.empty();
  }

  /** The compiler's path. */
  public Path path() {
    return compiler;
  }

  /**
   * The C source shipped as the resource {@code name} beside {@code owner}.
   *
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} when the jar lacks it
   */
  public static byte[] source(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw unavailable("the C source " + name + " is missing from the jar of " + owner.getName());
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw unavailable("cannot read the C source " + name + ": " + e);
    }
  }

  /**
   * Compiles one C source file into a static, stripped executable, in a scratch directory that is
   * removed afterwards. The compiler runs with only {@code PATH=/usr/bin:/bin} and {@code LC_ALL=C}
   * in its environment, so nothing of this JVM's environment changes what it builds; the same
   * compiler and source give the same bytes.
   *
   * @param what how messages name the program, for example "the entrypoint launcher"
   * @param source the C source
   * @param workDirectory where the scratch directory is made
   * @return the executable's bytes
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} when compiling fails, with the
   *     compiler's output
   */
  public byte[] compile(String what, byte[] source, Path workDirectory) {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(workDirectory, "workDirectory");
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory(workDirectory, "ck-cc-");
      Path file = scratch.resolve("program.c");
      Files.write(file, source);
      Path binary = scratch.resolve("program");
      Path log = scratch.resolve("cc.log");
      ProcessBuilder cc =
          new ProcessBuilder(
                  compiler.toString(), "-static", "-Os", "-s", "-Wall", "-o", binary.toString(),
                  file.toString())
              .directory(scratch.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      // The compiler finds its assembler and linker on PATH; nothing else of this JVM's
      // environment may change what it builds.
      cc.environment().clear();
      cc.environment().put("PATH", "/usr/bin:/bin");
      cc.environment().put("LC_ALL", "C");
      int status = awaitTool(cc.start(), "the C compiler " + compiler);
      if (status != 0) {
        throw unavailable(
            "compiling "
                + what
                + " with "
                + compiler
                + " failed with status "
                + status
                + " ("
                + INSTALL_HINT
                + "): "
                + Files.readString(log).strip());
      }
      return Files.readAllBytes(binary);
    } catch (IOException e) {
      throw unavailable("cannot compile " + what + " with " + compiler + ": " + e);
    } finally {
      if (scratch != null) {
        try {
          DirectoryTrees.delete(scratch);
        } catch (IOException e) {
          LOG.debug("cannot delete {}: {}", scratch, e.getMessage());
        }
      }
    }
  }

  /**
   * Waits for a host tool this class or a backend runs to build something (the compiler, {@code
   * jlink}), at most 5 minutes, killing it when it takes longer or the wait is interrupted.
   *
   * @return its exit status
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} naming {@code what} when it
   *     did not finish
   */
  public static int awaitTool(Process process, String what) {
    try {
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw unavailable(what + " did not finish within 5 minutes");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw unavailable("interrupted while running " + what);
    }
  }

  private static BackendUnavailableException unavailable(String message) {
    return new BackendUnavailableException(BackendUnavailableException.UNAVAILABLE, message);
  }
}
