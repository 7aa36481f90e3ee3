package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.EgressRelay;
import dev.capability.backend.support.HostPaths;
import dev.capability.backend.support.NestedGitEntries;
import dev.capability.backend.support.SystemPaths;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The sandbox's filesystem for one launch: an allowlist on an empty root, never the host root.
 *
 * <ol>
 *   <li>System directories ({@code /usr}, {@code /bin}, {@code /sbin}, {@code /lib*}) read-only;
 *       those that are symlinks on the host (merged /usr) are recreated as the same symlinks, not
 *       bound. Selected {@code /etc} entries the same way; {@code /etc/passwd} and {@code
 *       /etc/group} are generated and name only the sandbox's user.
 *   <li>A fresh {@code /proc}, a minimal {@code /dev}, private size-limited {@code /tmp} and {@code
 *       /dev/shm}.
 *   <li>The repository read-only, the writable roots writable, and the working directory read-only
 *       when neither shows it; parents before children.
 *   <li>Protected paths under a writable root rebound read-only; an absent one masked by a
 *       read-only empty directory at its first missing component, so it cannot be created; the
 *       mount point is a placeholder recorded in a {@link PlaceholderJournal}. Every
 *       {@code .git} below a writable root is rebound read-only as well ({@link NestedGitEntries}).
 *   <li>The private copy of the pinned executable, read-only, at its canonical path.
 *   <li>For filtered network, the egress relay read-only at {@link EgressRelay#SANDBOX_PATH}
 *       ({@link #withEgressRelay}).
 *   <li>{@code /dev} and the root remounted read-only.
 * </ol>
 *
 * <p>Home directories, {@code /run}, {@code /var/run}, {@code $XDG_RUNTIME_DIR}, {@code /sys} and
 * the host's {@code /tmp} are never bound, and no bind may be one of them or contain one, so host
 * sockets cannot be reached even by path. Every bind source is walked without following symlinks
 * just before the launch.
 */
final class SandboxLayout {
  static final Path ROOT = Path.of("/");
  static final Path PROC = Path.of("/proc");
  static final Path DEV = Path.of("/dev");
  static final Path SHM = Path.of("/dev/shm");
  static final Path TMP = Path.of("/tmp");
  static final Path ETC = Path.of("/etc");

  private static final List<Path> SYSTEM_DIRECTORIES =
      List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32").stream()
          .map(Path::of)
          .toList();

  /** Never bound, nor any directory that contains them. */
  private static final List<Path> HIDDEN =
      List.of("/sys", "/run", "/var/run", "/home", "/root", "/boot").stream()
          .map(Path::of)
          .toList();

  /** Nothing is bound below these. */
  private static final List<Path> NEVER_BELOW =
      List.of("/proc", "/sys", "/dev", "/run", "/var/run").stream().map(Path::of).toList();

  /** No writable root below these. */
  private static final List<Path> NEVER_WRITABLE_BELOW =
      List.of("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot")
          .stream()
          .map(Path::of)
          .toList();

  /**
   * The mounts in order, plus the masks whose mount points must exist on the host before bwrap
   * runs.
   *
   * @param mounts bwrap filesystem operations, in order
   * @param placeholders the mount points of the masks
   * @param pinned the bind sources in the repository and the writable roots, which are bound by
   *     descriptor (see {@link PinnedSources})
   */
  record Plan(List<MountOp> mounts, Placeholders placeholders, List<Path> pinned) {
    Plan {
      mounts = List.copyOf(mounts);
      Objects.requireNonNull(placeholders, "placeholders");
      pinned = List.copyOf(pinned);
    }

    Plan(List<MountOp> mounts, Placeholders placeholders) {
      this(mounts, placeholders, List.of());
    }
  }

  /**
   * Absent paths under a writable root that get an empty placeholder directory on the host while a
   * run masks them, claimed through the journal that removes them again.
   *
   * @param journal where the placeholders are recorded, outside every repository
   * @param paths the placeholders this run needs
   */
  record Placeholders(PlaceholderJournal journal, List<Path> paths) {
    Placeholders {
      Objects.requireNonNull(journal, "journal");
      paths = List.copyOf(paths);
    }
  }

  /**
   * The host files of one run that the layout binds.
   *
   * @param executable the private copy of the pinned executable
   * @param passwd the generated {@code /etc/passwd}
   * @param group the generated {@code /etc/group}
   * @param mask an empty read-only directory that masks absent protected paths
   */
  record RunFiles(Path executable, Path passwd, Path group, Path mask) {
    RunFiles {
      Objects.requireNonNull(executable, "executable");
      Objects.requireNonNull(passwd, "passwd");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(mask, "mask");
    }
  }

  private final BwrapSettings settings;
  private final SandboxIdentity identity;
  private final boolean sizedTmpfs;
  private final NestedGitEntries.Bounds gitSearch;
  private final Set<Path> hidden;
  private final List<Path> neverBelow;
  private final PlaceholderJournal journal;

  /**
   * @param settings the system entries and sizes
   * @param identity who must be able to reach the binds
   * @param sizedTmpfs true when this bwrap can limit a tmpfs's size
   */
  SandboxLayout(BwrapSettings settings, SandboxIdentity identity, boolean sizedTmpfs) {
    this(settings, identity, sizedTmpfs, NestedGitEntries.Bounds.DEFAULT);
  }

  /**
   * @param gitSearch how far the search for {@code .git} entries below the writable roots goes
   */
  SandboxLayout(
      BwrapSettings settings,
      SandboxIdentity identity,
      boolean sizedTmpfs,
      NestedGitEntries.Bounds gitSearch) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.sizedTmpfs = sizedTmpfs;
    this.gitSearch = Objects.requireNonNull(gitSearch, "gitSearch");
    this.hidden = new LinkedHashSet<>(HIDDEN);
    this.neverBelow = new ArrayList<>(NEVER_BELOW);
    this.journal = new PlaceholderJournal(settings.workDirectory());
    journal.recover();
    SystemPaths.namedDirectory(System.getProperty("user.home")).ifPresent(hidden::add);
    SystemPaths.namedDirectory(System.getenv("XDG_RUNTIME_DIR"))
        .ifPresent(
            runtime -> {
              hidden.add(runtime);
              neverBelow.add(runtime);
            });
  }

  /**
   * Checks the spec's paths and plans the mounts.
   *
   * @throws LaunchFailedException naming the path and what is wrong with it
   */
  Plan plan(LaunchSpec spec, RunFiles files) {
    Path workingDirectory =
        HostPaths.requireNormalAbsolute(spec.workingDirectory(), "working directory");
    if (!Files.isDirectory(workingDirectory)) {
      throw new LaunchFailedException(
          "working directory " + workingDirectory + " does not exist or is not a directory");
    }
    List<MountOp> mounts = new ArrayList<>(systemMounts(files));
    Set<Path> hiddenNow = new LinkedHashSet<>(hidden);
    hiddenNow.addAll(SystemPaths.homeDirectories());

    Optional<Path> repository = spec.repository();
    List<Path> writable = spec.writableRoots();
    List<TreeBind> tree = new ArrayList<>();
    repository.ifPresent(repo -> tree.add(checkedTree(repo, "repository", false, hiddenNow)));
    for (Path root : writable) {
      tree.add(checkedTree(root, "writable root", true, hiddenNow));
    }
    if (!visible(workingDirectory, tree)) {
      tree.add(checkedTree(workingDirectory, "working directory", false, hiddenNow));
    }
    tree.sort(
        Comparator.comparingInt((TreeBind b) -> b.path().getNameCount())
            .thenComparing(TreeBind::writable));
    List<Path> pinned = new ArrayList<>();
    for (TreeBind bind : tree) {
      mounts.add(
          bind.writable()
              ? MountOp.bind(bind.path(), bind.path())
              : MountOp.readOnlyBind(bind.path(), bind.path()));
      pinned.add(bind.path());
    }

    List<Path> placeholders = new ArrayList<>();
    mounts.addAll(protectedMounts(spec, files, placeholders, pinned));

    Path executable = HostPaths.requireNormalAbsolute(spec.executable().path(), "executable path");
    for (Path below : neverBelow) {
      if (HostPaths.within(executable, below)) {
        throw new LaunchFailedException(
            "cannot place the executable at "
                + executable
                + " inside the sandbox: "
                + below
                + " is the sandbox's own");
      }
    }
    mounts.add(MountOp.readOnlyBind(files.executable(), executable));
    mounts.add(MountOp.remountReadOnly(DEV));
    mounts.add(MountOp.remountReadOnly(ROOT));
    return new Plan(mounts, new Placeholders(journal, placeholders), pinned);
  }

  /**
   * {@code plan} with the egress relay bound read-only at {@link EgressRelay#SANDBOX_PATH}, after
   * everything else and before the final read-only remounts. bwrap creates its directory in the
   * sandbox's own root; nothing of the host's {@code /run} is shown.
   */
  static Plan withEgressRelay(Plan plan, Path relay) {
    List<MountOp> mounts = new ArrayList<>(plan.mounts());
    int remounts = 0;
    while (remounts < mounts.size()
        && mounts.get(mounts.size() - 1 - remounts).kind() == MountOp.Kind.REMOUNT_READ_ONLY) {
      remounts++;
    }
    mounts.add(
        mounts.size() - remounts,
        MountOp.readOnlyBind(relay, Path.of(EgressRelay.SANDBOX_PATH)));
    return new Plan(mounts, plan.placeholders(), plan.pinned());
  }

  private record TreeBind(Path path, boolean writable) {}

  private List<MountOp> systemMounts(RunFiles files) {
    List<MountOp> mounts = new ArrayList<>();
    for (Path dir : SYSTEM_DIRECTORIES) {
      systemEntry(dir).ifPresent(mounts::add);
    }
    Optional<BasicFileAttributes> etc = HostPaths.attributes(ETC);
    if (etc.isPresent() && etc.get().isDirectory()) {
      for (Path entry : SystemPaths.etcEntries(settings.etcEntries())) {
        systemEntry(entry).ifPresent(mounts::add);
      }
    } else if (etc.isPresent()) {
      throw new LaunchFailedException(ETC + " on this host is not a plain directory");
    }
    mounts.add(MountOp.readOnlyBind(files.passwd(), ETC.resolve("passwd")));
    mounts.add(MountOp.readOnlyBind(files.group(), ETC.resolve("group")));
    for (Path path : settings.readOnlyPaths()) {
      requireAllowed(path, BwrapSettings.READ_ONLY_PATHS + " entry", false, hidden);
      HostPaths.requireNoSymlink(path, BwrapSettings.READ_ONLY_PATHS + " entry");
      mounts.add(MountOp.readOnlyBind(path, path));
    }
    mounts.add(MountOp.proc(PROC));
    mounts.add(MountOp.dev(DEV));
    mounts.add(MountOp.tmpfs(SHM, size(settings.shmSizeBytes())));
    mounts.add(MountOp.tmpfs(TMP, size(settings.tmpSizeBytes())));
    return mounts;
  }

  private OptionalLong size(long bytes) {
    return sizedTmpfs ? OptionalLong.of(bytes) : OptionalLong.empty();
  }

  /** A symlink recreated with the same target, a directory or file bound read-only, or nothing. */
  private static Optional<MountOp> systemEntry(Path path) {
    Optional<BasicFileAttributes> attributes = HostPaths.attributes(path);
    if (attributes.isEmpty()) {
      return Optional.empty();
    }
    if (attributes.get().isSymbolicLink()) {
      try {
        return Optional.of(MountOp.symlink(Files.readSymbolicLink(path).toString(), path));
      } catch (IOException e) {
        throw new LaunchFailedException("cannot read the symlink " + path + ": " + e, e);
      }
    }
    if (attributes.get().isDirectory() || attributes.get().isRegularFile()) {
      return Optional.of(MountOp.readOnlyBind(path, path));
    }
    return Optional.empty();
  }

  private TreeBind checkedTree(Path path, String what, boolean writable, Set<Path> hiddenNow) {
    requireAllowed(path, what, writable, hiddenNow);
    if (HostPaths.requireNoSymlink(path, what) != HostPaths.Kind.DIRECTORY) {
      throw new LaunchFailedException(what + " " + path + " is not a directory");
    }
    Optional<String> problem = identity.reachProblem(path, what);
    if (problem.isEmpty() && writable) {
      problem = identity.writeProblem(path);
    }
    if (problem.isPresent()) {
      throw new LaunchFailedException(problem.get());
    }
    return new TreeBind(path, writable);
  }

  private void requireAllowed(Path path, String what, boolean writable, Set<Path> hiddenNow) {
    HostPaths.requireNormalAbsolute(path, what);
    if (path.equals(ROOT)) {
      throw new LaunchFailedException(
          what + " " + path + " would expose the whole host filesystem");
    }
    List<Path> covered = new ArrayList<>(SYSTEM_DIRECTORIES);
    covered.addAll(List.of(ETC, PROC, DEV, TMP));
    covered.addAll(hiddenNow);
    for (Path reserved : covered) {
      if (HostPaths.within(reserved, path)) {
        throw new LaunchFailedException(
            what
                + " "
                + path
                + " is or contains "
                + reserved
                + ", which the sandbox never shows from the host");
      }
    }
    for (Path below : neverBelow) {
      if (HostPaths.within(path, below)) {
        throw new LaunchFailedException(
            what
                + " "
                + path
                + " lies in "
                + below
                + ", which the sandbox never shows from the host");
      }
    }
    if (writable) {
      for (Path system : NEVER_WRITABLE_BELOW) {
        if (HostPaths.within(path, system)) {
          throw new LaunchFailedException(
              what
                  + " "
                  + path
                  + " lies in the system directory "
                  + system
                  + ", which stays read-only");
        }
      }
    }
  }

  private boolean visible(Path directory, List<TreeBind> tree) {
    if (directory.equals(ROOT)) {
      return true;
    }
    for (TreeBind bind : tree) {
      if (HostPaths.within(directory, bind.path())) {
        return true;
      }
    }
    for (Path dir : SYSTEM_DIRECTORIES) {
      if (HostPaths.within(directory, dir)) {
        return true;
      }
    }
    for (Path path : settings.readOnlyPaths()) {
      if (HostPaths.within(directory, path)) {
        return true;
      }
    }
    return false;
  }

  /** The outermost placeholder at or above {@code path}, if any. */
  private static Optional<Path> firstPlaceholder(Path path, Set<Path> placeholders) {
    for (int length = 1; length <= path.getNameCount(); length++) {
      Path prefix = path.getRoot().resolve(path.subpath(0, length));
      if (placeholders.contains(prefix)) {
        return Optional.of(prefix);
      }
    }
    return Optional.empty();
  }

  private List<MountOp> protectedMounts(
      LaunchSpec spec, RunFiles files, List<Path> placeholders, List<Path> pinned) {
    List<Path> existing = new ArrayList<>();
    List<Path> missing = new ArrayList<>();
    List<Path> exposed = HostPaths.exposedProtectedPaths(spec);
    // Another run's placeholder exists only as a mask: what lies at or below it is absent.
    Set<Path> placeholdersNow = exposed.isEmpty() ? Set.of() : journal.placeholders();
    for (Path path : exposed) {
      Optional<Path> firstMissing = firstPlaceholder(path, placeholdersNow);
      if (firstMissing.isEmpty()) {
        firstMissing = HostPaths.firstMissing(path, "protected path");
      }
      if (firstMissing.isPresent()) {
        missing.add(firstMissing.get());
      } else {
        existing.add(path);
      }
    }
    existing.addAll(
        NestedGitEntries.notBelow(NestedGitEntries.find(spec.writableRoots(), gitSearch), existing)
            .stream()
            .filter(git -> firstPlaceholder(git, placeholdersNow).isEmpty())
            .toList());
    List<MountOp> mounts = new ArrayList<>();
    List<Path> binds = new ArrayList<>(existing);
    binds.sort(Comparator.comparingInt(Path::getNameCount));
    for (Path path : binds) {
      mounts.add(MountOp.readOnlyBind(path, path));
      pinned.add(path);
    }
    Set<Path> masks = new LinkedHashSet<>();
    for (Path absent : missing) {
      boolean writableHere =
          spec.writableRoots().stream().anyMatch(root -> HostPaths.within(absent, root));
      boolean alreadyReadOnly = existing.stream().anyMatch(p -> HostPaths.within(absent, p));
      if (writableHere && !alreadyReadOnly) {
        masks.add(absent);
      }
    }
    List<Path> sortedMasks = new ArrayList<>(masks);
    sortedMasks.sort(Comparator.comparingInt(Path::getNameCount));
    for (Path mask : sortedMasks) {
      if (sortedMasks.stream()
          .anyMatch(other -> !other.equals(mask) && HostPaths.within(mask, other))) {
        // An ancestor is masked already; nothing can be created below it.
        continue;
      }
      mounts.add(MountOp.readOnlyBind(files.mask(), mask));
      placeholders.add(mask);
    }
    return mounts;
  }
}
