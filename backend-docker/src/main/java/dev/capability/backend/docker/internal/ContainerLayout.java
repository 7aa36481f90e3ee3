package dev.capability.backend.docker.internal;

import dev.capability.backend.support.EgressRelay;
import dev.capability.backend.support.HostPaths;
import dev.capability.backend.support.NestedGitEntries;
import dev.capability.backend.support.SystemPaths;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.EgressSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The container's bind mounts for one launch; the image's root filesystem, read-only, is the rest.
 *
 * <ol>
 *   <li>The configured system directories ({@code /usr}, {@code /bin}, {@code /sbin}, {@code
 *       /lib*} by default) read-only at the same path; those that are symlinks on the host (merged
 *       /usr) are not bound: the image carries the same symlinks. Selected {@code /etc} entries
 *       the same way; symlinked ones are skipped.
 *   <li>The repository read-only, the writable roots writable, and the working directory read-only
 *       when neither shows it.
 *   <li>Protected paths under a writable root rebound read-only; an absent one there is refused,
 *       since the daemon would create its mount point on the host. Every nested {@code .git} below
 *       a writable root, and the git directory a {@code gitdir:} file there leads to, is rebound
 *       read-only too ({@link NestedGitEntries}), as a nested repository's hooks and configuration
 *       run for the host user's next git command in it.
 *   <li>The private copy of the pinned executable, read-only, at its canonical path.
 * </ol>
 *
 * <p>Home directories, {@code /run}, {@code /var/run}, {@code /sys}, {@code /proc}, {@code /dev},
 * the host's {@code /tmp} and anything holding the Docker socket are never bound, nor any directory
 * that contains them. Every source is walked without following symlinks and refused when a file
 * system is mounted below it, or when a directory above it could be written by a party that could
 * swap a component for a symlink before the daemon resolves it ({@link BindSources}).
 */
final class ContainerLayout {
  static final Path ROOT = Path.of("/");
  static final Path ETC = Path.of("/etc");
  static final Path TMP = Path.of("/tmp");

  /** Never bound, nor any directory that contains them. */
  private static final List<Path> HIDDEN =
      List.of("/sys", "/run", "/var/run", "/home", "/root", "/boot", "/var/lib/docker").stream()
          .map(Path::of)
          .toList();

  /** Nothing is bound below these. */
  private static final List<Path> NEVER_BELOW =
      List.of("/proc", "/sys", "/dev", "/run", "/var/run", "/var/lib/docker").stream()
          .map(Path::of)
          .toList();

  /** No writable root below these. */
  private static final List<Path> NEVER_WRITABLE_BELOW =
      List.of("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/opt")
          .stream()
          .map(Path::of)
          .toList();

  private final DockerSettings settings;
  private final Set<Path> hidden;
  private final Set<Path> imageTools;
  private final BindSources sources;

  ContainerLayout(DockerSettings settings) {
    this(settings, BindSources.forThisProcess(settings));
  }

  ContainerLayout(DockerSettings settings, BindSources sources) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.sources = Objects.requireNonNull(sources, "sources");
    this.hidden = new LinkedHashSet<>(HIDDEN);
    // The entrypoint runs these from the image before the command: a bind over them would run
    // other bytes than the pinned executable, as PID 1.
    this.imageTools = new LinkedHashSet<>();
    for (String tool : List.of(settings.launcher(), settings.init())) {
      Path parent = Path.of(tool).getParent();
      imageTools.add(parent == null || parent.getNameCount() == 0 ? Path.of(tool) : parent);
    }
    SystemPaths.namedDirectory(System.getProperty("user.home")).ifPresent(hidden::add);
    SystemPaths.namedDirectory(System.getenv("XDG_RUNTIME_DIR")).ifPresent(hidden::add);
  }

  /**
   * Checks the spec's paths and plans the binds.
   *
   * @param executableCopy the private copy of the pinned executable
   * @throws LaunchFailedException naming the path and what is wrong with it
   */
  List<Mount> plan(LaunchSpec spec, Path executableCopy, MountTable mounts) {
    Path workingDirectory =
        HostPaths.requireNormalAbsolute(spec.workingDirectory(), "working directory");
    if (!Files.isDirectory(workingDirectory)) {
      throw new LaunchFailedException(
          "working directory " + workingDirectory + " does not exist or is not a directory");
    }
    Map<Path, Mount> binds = new LinkedHashMap<>();
    Set<Path> hiddenNow = new LinkedHashSet<>(hidden);
    hiddenNow.addAll(SystemPaths.homeDirectories());
    for (Path dir : settings.systemPaths()) {
      if (isPlainDirectory(dir)) {
        requireNotHidden(dir, "system directory", hiddenNow);
        mounts.requireNoSubmounts(dir, "system directory");
        sources.requireUnswappable(dir, "system directory");
        binds.put(dir, bind(dir, dir, true));
      }
    }
    for (Path entry : SystemPaths.etcEntries(settings.etcEntries())) {
      Optional<BasicFileAttributes> attributes = HostPaths.attributes(entry);
      if (attributes.isPresent()
          && (attributes.get().isDirectory() || attributes.get().isRegularFile())) {
        mounts.requireNoSubmounts(entry, "/etc entry");
        sources.requireUnswappable(entry, "/etc entry");
        binds.put(entry, bind(entry, entry, true));
      }
    }

    List<Path> writable = spec.writableRoots();
    Optional<Path> repository = spec.repository();
    List<Path> tree = new ArrayList<>();
    repository.ifPresent(
        repo -> {
          checkedTree(repo, "repository", false, hiddenNow, mounts);
          tree.add(repo);
          if (!writable.contains(repo)) {
            binds.put(repo, bind(repo, repo, true));
          }
        });
    for (Path root : writable) {
      checkedTree(root, "writable root", true, hiddenNow, mounts);
      tree.add(root);
      binds.put(root, bind(root, root, false));
    }
    if (tree.stream().noneMatch(workingDirectory::startsWith)
        && settings.systemPaths().stream().noneMatch(workingDirectory::startsWith)) {
      checkedTree(workingDirectory, "working directory", false, hiddenNow, mounts);
      binds.put(workingDirectory, bind(workingDirectory, workingDirectory, true));
    }
    for (Path path : protectedBinds(spec)) {
      binds.put(path, bind(path, path, true));
    }

    Path executable = HostPaths.requireNormalAbsolute(spec.executable().path(), "executable path");
    List<Path> notThere = new ArrayList<>(NEVER_BELOW);
    notThere.addAll(imageTools);
    for (Path below : notThere) {
      if (executable.startsWith(below)) {
        throw new LaunchFailedException(
            "cannot place the executable at "
                + executable
                + " inside the container: "
                + below
                + " is the container's own");
      }
    }
    sources.requireUnswappable(executableCopy, "executable copy");
    binds.put(executable, bind(executableCopy, executable, true));
    return List.copyOf(binds.values());
  }

  /**
   * The mounts of filtered network: the egress relay read-only at {@link EgressRelay#SANDBOX_PATH}
   * and the proxy's socket at {@link EgressSandbox#SOCKET}. A socket connects on a read-only
   * mount; the container's user reaches it because the proxy makes it connectable by every user,
   * whatever the directory it lies in on the host.
   *
   * @throws LaunchFailedException when the socket is not a Unix socket reached without symlinks,
   *     or a directory above it or the relay can be changed by an untrusted user
   */
  List<Mount> egressMounts(Path socket, Path relay) {
    HostPaths.requireNormalAbsolute(socket, "egress socket");
    if (HostPaths.requireNoSymlink(socket, "egress socket") != HostPaths.Kind.OTHER) {
      throw new LaunchFailedException("egress socket " + socket + " is not a Unix socket");
    }
    sources.requireUnswappable(socket, "egress socket");
    sources.requireUnswappable(relay, "egress relay");
    return List.of(
        bind(relay, Path.of(EgressRelay.SANDBOX_PATH), true),
        bind(socket, Path.of(EgressSandbox.SOCKET), true));
  }

  private static Mount bind(Path source, Path target, boolean readOnly) {
    return new Mount()
        .withType(MountType.BIND)
        .withSource(source.toString())
        .withTarget(target.toString())
        .withReadOnly(readOnly);
  }

  private static boolean isPlainDirectory(Path dir) {
    return HostPaths.attributes(dir).map(BasicFileAttributes::isDirectory).orElse(false);
  }

  private void requireNotHidden(Path path, String what, Set<Path> hiddenNow) {
    List<Path> never = new ArrayList<>(hiddenNow);
    never.addAll(imageTools);
    never.addAll(NEVER_BELOW);
    never.add(TMP);
    for (Path reserved : never) {
      if (reserved.startsWith(path) || path.startsWith(reserved)) {
        throw new LaunchFailedException(
            what + " " + path + " is, contains or lies in " + reserved
                + ", which the container never shows from the host");
      }
    }
  }

  private void checkedTree(
      Path path, String what, boolean writable, Set<Path> hiddenNow, MountTable mounts) {
    HostPaths.requireNormalAbsolute(path, what);
    if (path.equals(ROOT)) {
      throw new LaunchFailedException(what + " " + path + " would expose the whole host filesystem");
    }
    List<Path> covered = new ArrayList<>(settings.systemPaths());
    covered.addAll(List.of(ETC, TMP));
    covered.addAll(NEVER_BELOW);
    covered.addAll(hiddenNow);
    covered.addAll(imageTools);
    for (Path reserved : covered) {
      if (reserved.startsWith(path)) {
        throw new LaunchFailedException(
            what
                + " "
                + path
                + " is or contains "
                + reserved
                + ", which the container never shows from the host");
      }
    }
    for (Path below : hiddenNow) {
      if (path.startsWith(below)) {
        throw new LaunchFailedException(
            what + " " + path + " lies in " + below + ", which the container never shows");
      }
    }
    List<Path> neverInside = new ArrayList<>(NEVER_BELOW);
    neverInside.addAll(imageTools);
    for (Path below : neverInside) {
      if (path.startsWith(below)) {
        throw new LaunchFailedException(
            what + " " + path + " lies in " + below + ", which the container never shows from the host");
      }
    }
    if (writable) {
      for (Path system : NEVER_WRITABLE_BELOW) {
        if (path.startsWith(system)) {
          throw new LaunchFailedException(
              what + " " + path + " lies in the system directory " + system + ", which stays read-only");
        }
      }
    }
    if (HostPaths.requireNoSymlink(path, what) != HostPaths.Kind.DIRECTORY) {
      throw new LaunchFailedException(what + " " + path + " is not a directory");
    }
    mounts.requireNoSubmounts(path, what);
    // Protected paths are not checked this way: they lie in a writable root, which the
    // container's uid writes by design (see docs/decisions.md).
    sources.requireUnswappable(path, what);
  }

  private static List<Path> protectedBinds(LaunchSpec spec) {
    List<Path> binds = new ArrayList<>();
    for (Path path : HostPaths.exposedProtectedPaths(spec)) {
      if (HostPaths.firstMissing(path, "protected path").isPresent()) {
        throw new LaunchFailedException(
            "protected path "
                + path
                + " does not exist under a writable root; the docker backend cannot keep it from"
                + " being created (the daemon would create a mask's mount point on the host), so"
                + " it refuses the launch");
      }
      binds.add(path);
    }
    binds.addAll(
        NestedGitEntries.notBelow(
            NestedGitEntries.find(spec.writableRoots(), NestedGitEntries.Bounds.DEFAULT), binds));
    binds.sort(Comparator.comparingInt(Path::getNameCount));
    return binds;
  }
}
