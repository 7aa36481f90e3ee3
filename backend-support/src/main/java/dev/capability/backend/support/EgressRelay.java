package dev.capability.backend.support;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.network.EgressSandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The program that gives a sandbox with filtered network its only way out: a static executable
 * (built from {@code egress-relay.c} beside this class) that listens on {@link
 * EgressSandbox#PROXY_HOST}:{@link EgressSandbox#PROXY_PORT} inside the sandbox's own network
 * namespace, relays every connection to the egress proxy's Unix socket, and executes the command in
 * its own process, so the command keeps its pid, exit status and signals:
 *
 * <pre>
 * egress-relay SOCKET PORT PROGRAM ARGV0 [ARGS...]
 * </pre>
 *
 * {@code SOCKET} is the socket's path in the sandbox, or {@code fd:N} for an {@code O_PATH}
 * descriptor of it the relay inherits (see {@code PinnedPath.openSocket}). The relay process is
 * not the command's child, ends when the command ends, and holds none of its standard streams;
 * each connection is served by a process of its own that dies with the relay. The processes are
 * named {@value #PROGRAM_NAME}. It never runs on the host.
 *
 * <p>Built once per source and compiler into a cache directory that only this user may change
 * (mode 0711, so that a sandbox's user may pass through to the executable, mode 0555).
 */
public final class EgressRelay {
  /** The executable's name, and so the name its processes show in {@code /proc/PID/comm}. */
  public static final String PROGRAM_NAME = "egress-relay";

  /** Where a backend puts the relay inside the sandbox: beside {@link EgressSandbox#SOCKET}. */
  public static final String SANDBOX_PATH =
      Path.of(EgressSandbox.SOCKET).resolveSibling(PROGRAM_NAME).toString();

  private static final String SOURCE = "egress-relay.c";
  private static final Set<PosixFilePermission> CACHE_DIRECTORY =
      PosixFilePermissions.fromString("rwx--x--x");
  private static final Set<PosixFilePermission> EXECUTABLE =
      PosixFilePermissions.fromString("r-xr-xr-x");

  private final Path executable;

  private EgressRelay(Path executable) {
    this.executable = executable;
  }

  /**
   * The relay for this host, built with the first C compiler of {@link StaticCompiler#CANDIDATES}.
   *
   * @param cacheParent where the cache directory {@code capability-egress-relay-UID} is kept
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} when this host has no C
   *     compiler, or as {@link #build}
   */
  public static EgressRelay onThisHost(Path cacheParent) {
    StaticCompiler compiler =
        StaticCompiler.onThisHost()
            .orElseThrow(
                () ->
                    new BackendUnavailableException(
                        BackendUnavailableException.UNAVAILABLE,
                        "the egress relay is compiled with this host's C compiler, and there is"
                            + " none at "
                            + StaticCompiler.CANDIDATES
                            + " ("
                            + StaticCompiler.INSTALL_HINT
                            + ")"));
    return build(compiler, cacheParent);
  }

  /**
   * The relay for this host: the cached executable when one was built from the same source with
   * the same compiler, else built now with {@code compiler}.
   *
   * @param compiler this host's C compiler
   * @param cacheParent where the cache directory {@code capability-egress-relay-UID} is kept
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} when the relay cannot be
   *     compiled, or the cache directory is not this user's own (a symlink, another owner, or
   *     writable by others)
   */
  public static EgressRelay build(StaticCompiler compiler, Path cacheParent) {
    Objects.requireNonNull(compiler, "compiler");
    Objects.requireNonNull(cacheParent, "cacheParent");
    byte[] source = StaticCompiler.source(EgressRelay.class, SOURCE);
    String key =
        Sha256.hex(
            (Sha256.hex(source) + "\n" + compiler.path() + "\n").getBytes(StandardCharsets.UTF_8));
    try {
      Path cache = ownCacheDirectory(cacheParent);
      Path executable = cache.resolve(PROGRAM_NAME + "-" + key.substring(0, 32));
      if (!Files.exists(executable, LinkOption.NOFOLLOW_LINKS)) {
        byte[] binary = compiler.compile("the egress relay", source, cache);
        Path partial = Files.createTempFile(cache, PROGRAM_NAME + "-", ".partial");
        try {
          Files.write(partial, binary);
          Files.setPosixFilePermissions(partial, EXECUTABLE);
          Files.move(partial, executable, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
          // Another backend of this user built it at the same time.
        } finally {
          Files.deleteIfExists(partial);
        }
      }
      requireOwn(executable, false);
      return new EgressRelay(executable);
    } catch (IOException e) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "cannot keep the egress relay in " + cacheParent + ": " + e,
          e);
    }
  }

  /** The executable on this host, to be bound read-only into sandboxes at {@link #SANDBOX_PATH}. */
  public Path executable() {
    return executable;
  }

  /**
   * The command line that runs {@code program} with {@code argv} behind the relay.
   *
   * @param relay the relay's path in the sandbox
   * @param socket the proxy socket's path in the sandbox, or {@code fd:N}
   * @param program the path the command is executed from
   * @param argv the command's complete argument vector, its {@code argv[0]} first
   */
  public static List<String> command(String relay, String socket, String program, List<String> argv) {
    Objects.requireNonNull(relay, "relay");
    Objects.requireNonNull(socket, "socket");
    Objects.requireNonNull(program, "program");
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("argv needs at least argv[0]");
    }
    List<String> command = new ArrayList<>();
    command.add(relay);
    command.add(socket);
    command.add(Integer.toString(EgressSandbox.PROXY_PORT));
    command.add(program);
    command.addAll(argv);
    return List.copyOf(command);
  }

  private static Path ownCacheDirectory(Path parent) throws IOException {
    Path cache = parent.resolve("capability-egress-relay-" + uid());
    try {
      Files.createDirectory(cache, PosixFilePermissions.asFileAttribute(CACHE_DIRECTORY));
      // The mode asked for is filtered by the umask; set it exactly.
      Files.setPosixFilePermissions(cache, CACHE_DIRECTORY);
    } catch (FileAlreadyExistsException e) {
      // Made by an earlier backend; checked below like any other.
    }
    requireOwn(cache, true);
    return cache;
  }

  /** Refuses a path that is a symlink, of another kind, another user's, or writable by others. */
  private static void requireOwn(Path path, boolean directory) throws IOException {
    PosixFileAttributes attributes =
        Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    boolean rightKind = directory ? attributes.isDirectory() : attributes.isRegularFile();
    Object owner = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    Set<PosixFilePermission> mode = attributes.permissions();
    if (!rightKind
        || !owner.equals(uid())
        || mode.contains(PosixFilePermission.GROUP_WRITE)
        || mode.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          path
              + " is not this user's own "
              + (directory ? "directory" : "file")
              + " (uid "
              + owner
              + ", mode "
              + PosixFilePermissions.toString(mode)
              + "); refusing to run a relay from it");
    }
  }

  private static int uid() throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }
}
