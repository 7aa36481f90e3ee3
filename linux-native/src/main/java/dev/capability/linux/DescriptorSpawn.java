package dev.capability.linux;

import dev.capability.linux.internal.NativeSpawner;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Starts a program with {@code posix_spawn}, handing it chosen descriptors of this JVM, which
 * {@link ProcessBuilder} cannot do: it closes every descriptor above standard error in the child.
 * The child gets the chosen descriptors as 3, 4, ... in the order given, its standard input from a
 * file (or {@code /dev/null}, or a pipe written through the returned {@link Process}), its
 * standard output and error as pipes read through the returned {@link Process}, every other
 * descriptor closed, every signal at its default disposition and unblocked, and exactly the
 * environment given. It can start the child as the leader of a new session ({@code
 * POSIX_SPAWN_SETSID}), which costs no second {@code execve} as util-linux {@code setsid} does.
 */
public final class DescriptorSpawn {
  /** The descriptor the child gets the first handed descriptor as. */
  public static final int FIRST_HANDED_DESCRIPTOR = 3;

  private DescriptorSpawn() {}

  /**
   * Starts {@code request}.
   *
   * @throws NativeCallException {@link NativeCallException#SPAWN_FAILED} when the program could
   *     not be started (not found, not executable, a descriptor not open), or {@link
   *     NativeCallException#NATIVE_UNAVAILABLE}
   */
  public static Process start(Request request) {
    Objects.requireNonNull(request, "request");
    return NativeSpawner.start(request);
  }

  /**
   * What to start.
   *
   * @param argv the program's absolute path, then its arguments
   * @param environment the whole environment
   * @param directory the working directory
   * @param stdin the file to read standard input from; {@code /dev/null} when empty
   * @param handed this JVM's descriptors the child gets as 3, 4, ..., in order; each stays this
   *     JVM's to close
   * @param stdinPipe true when standard input is a pipe written through {@link
   *     Process#getOutputStream()} instead of a file; {@code stdin} must then be empty
   * @param newSession true when the child leads a new session (and process group) of its own
   */
  public record Request(
      List<String> argv,
      Map<String, String> environment,
      Path directory,
      Optional<Path> stdin,
      List<Integer> handed,
      boolean stdinPipe,
      boolean newSession) {
    public Request {
      argv = List.copyOf(argv);
      environment = Map.copyOf(environment);
      Objects.requireNonNull(directory, "directory");
      Objects.requireNonNull(stdin, "stdin");
      handed = List.copyOf(handed);
      if (argv.isEmpty() || !Path.of(argv.get(0)).isAbsolute()) {
        throw new IllegalArgumentException("argv must start with an absolute program path");
      }
      for (int descriptor : handed) {
        if (descriptor < 0) {
          throw new IllegalArgumentException("not a descriptor: " + descriptor);
        }
      }
      if (stdinPipe && stdin.isPresent()) {
        throw new IllegalArgumentException("stdin is either a file or a pipe, not both");
      }
    }

    /** A request with stdin from {@code stdin} ({@code /dev/null} when null) in this JVM's session. */
    public Request(
        List<String> argv,
        Map<String, String> environment,
        Path directory,
        @Nullable Path stdin,
        List<Integer> handed) {
      this(argv, environment, directory, Optional.ofNullable(stdin), handed, false, false);
    }

    /** This request with standard input from a pipe written through the process. */
    public Request withStdinPipe() {
      return new Request(argv, environment, directory, Optional.empty(), handed, true, newSession);
    }

    /** This request started as the leader of a new session. */
    public Request inNewSession() {
      return new Request(argv, environment, directory, stdin, handed, stdinPipe, true);
    }

    /** The descriptor number the child sees {@code handed.get(index)} as. */
    public int childDescriptor(int index) {
      Objects.checkIndex(index, handed.size());
      return FIRST_HANDED_DESCRIPTOR + index;
    }
  }
}
