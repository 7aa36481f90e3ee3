package dev.capability.kernel.core.internal.authority;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Paths no command may write, whatever the scopes say. A path is protected when it or a
 * directory above it matches a protected entry. Entries are {@link GlobPattern#protectedPath
 * protected-path globs}, whose wildcards match hidden names too.
 *
 * <p>Always protected, whatever the policy lists: {@code .git} at any depth (a nested repository's
 * configuration runs code as surely as the top one's), {@code .capability} (the ledger), and the
 * repository's real git and common directories when {@code .git} is a {@code gitdir:} file that
 * leads elsewhere inside the repository. Git directories outside the repository cannot be reached
 * through a repository-relative path without a symbolic link, which write targets may not
 * contain; {@link #gitDirectories()} lists them for backends that mount them read-only.
 *
 * <p>A path is also checked folded: lower case, without the code points macOS file systems
 * ignore in names (U+200C to U+200F, U+202A to U+202E, U+206A to U+206F, U+FEFF). On a
 * case-insensitive file system {@code .GIT/config} and {@code .g\u200Cit/config} are
 * {@code .git/config}; protection only ever grows by it.
 */
public final class ProtectedPaths {
  /** Entries protected whatever the policy says. */
  public static final List<String> ALWAYS = List.of("**/.git", ".capability");

  private final List<Entry> entries;
  private final List<String> gitDirectoriesInside;
  private final List<Path> gitDirectories;

  /**
   * Why a path is protected.
   *
   * @param entry the entry that matched: a pattern, or the repository-relative git directory
   * @param builtin true for an entry protected whatever the policy says
   * @param matched the path or the directory above it that the entry matched
   */
  public record Protection(String entry, boolean builtin, String matched) {
    public Protection {
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(matched, "matched");
    }
  }

  /** An entry compiled as written and folded; a path is protected when either matches. */
  private record Entry(String source, GlobPattern pattern, GlobPattern folded, boolean builtin) {
    static Entry of(String source, boolean builtin) {
      return new Entry(source, GlobPattern.protectedPath(source), GlobPattern.protectedPath(fold(source)), builtin);
    }

    /** The directory (or the path itself) of {@code path} this entry protects it through, if any. */
    Optional<String> match(String path, String foldedPath) {
      int end = pattern.shortestMatchingPrefix(path);
      if (end >= 0) {
        return Optional.of(path.substring(0, end));
      }
      int foldedEnd = folded.shortestMatchingPrefix(foldedPath);
      if (foldedEnd < 0) {
        return Optional.empty();
      }
      // Folding keeps every '/', so the folded prefix has as many segments as the original one.
      int segments = RepositoryPaths.segments(foldedPath.substring(0, foldedEnd)).size();
      return Optional.of(String.join("/", RepositoryPaths.segments(path).subList(0, segments)));
    }
  }

  private ProtectedPaths(List<Entry> entries, List<String> gitDirectoriesInside, List<Path> gitDirectories) {
    this.entries = List.copyOf(entries);
    this.gitDirectoriesInside = List.copyOf(gitDirectoriesInside);
    this.gitDirectories = List.copyOf(gitDirectories);
  }

  /**
   * The protected paths of the repository whose real root is {@code root}: {@link #ALWAYS}, the
   * git directories found through {@code root/.git}, and {@code configured} (the policy's
   * protected paths, by default {@link dev.capability.kernel.api.policy.ExecutionPolicy#DEFAULT_PROTECTED_PATHS}).
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException {@code SCOPE_PATTERN_INVALID}
   *     for a bad configured entry, {@code GIT_DIRECTORY_INVALID} for a {@code .git} that leads nowhere
   */
  public static ProtectedPaths of(Path root, List<String> configured) {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(configured, "configured");
    List<Entry> entries = new ArrayList<>();
    ALWAYS.forEach(pattern -> entries.add(Entry.of(pattern, true)));
    configured.forEach(pattern -> entries.add(Entry.of(Objects.requireNonNull(pattern, "pattern"), false)));
    GitLocations git = GitLocations.of(root);
    List<String> inside = new ArrayList<>();
    for (Path directory : git.all()) {
      if (directory.startsWith(root)) {
        // Relative to the root this is a literal path, not a pattern: its name may hold glob characters.
        inside.add(root.relativize(directory).toString());
      }
    }
    return new ProtectedPaths(entries, inside, git.all());
  }

  /** What protects {@code path} (a valid repository-relative path), if anything does. */
  public Optional<Protection> protection(String path) {
    String folded = fold(path);
    for (String directory : gitDirectoriesInside) {
      if (directory.isEmpty() || isAtOrUnder(directory, path) || isAtOrUnder(fold(directory), folded)) {
        return Optional.of(new Protection(directory.isEmpty() ? "." : directory, true, directory.isEmpty() ? path : directory));
      }
    }
    for (Entry entry : entries) {
      Optional<String> matched = entry.match(path, folded);
      if (matched.isPresent()) {
        return Optional.of(new Protection(entry.pattern().source(), entry.builtin(), matched.get()));
      }
    }
    return Optional.empty();
  }

  /**
   * A protected location strictly below {@code path}, if one is known without reading the
   * directory: a git directory inside the repository, {@code .git} at the root, or the literal
   * start of an entry such as {@code .github/workflows} below {@code .github}. Writing such a path
   * as a whole (removing or replacing a directory) would write what lies below it.
   */
  public Optional<Protection> heldBelow(String path) {
    List<Protection> anchors = new ArrayList<>();
    gitDirectoriesInside.forEach(directory -> anchors.add(new Protection(directory, true, directory)));
    anchors.add(new Protection("**/.git", true, ".git"));
    for (Entry entry : entries) {
      String prefix = String.join("/", entry.pattern().literalPrefix());
      if (!prefix.isEmpty()) {
        anchors.add(new Protection(entry.pattern().source(), entry.builtin(), prefix));
      }
    }
    String folded = fold(path);
    return anchors.stream()
        .filter(anchor -> path.isEmpty() || RepositoryPaths.isStrictAncestor(path, anchor.matched())
            || RepositoryPaths.isStrictAncestor(folded, fold(anchor.matched())))
        .findFirst();
  }

  /** {@code path} in lower case, without the code points macOS file systems ignore in names. */
  static String fold(String path) {
    StringBuilder kept = new StringBuilder(path.length());
    path.codePoints().filter(c -> !isIgnoredByHfs(c)).forEach(kept::appendCodePoint);
    return kept.toString().toLowerCase(Locale.ROOT);
  }

  private static boolean isIgnoredByHfs(int c) {
    return c >= 0x200C && c <= 0x200F || c >= 0x202A && c <= 0x202E || c >= 0x206A && c <= 0x206F || c == 0xFEFF;
  }

  private static boolean isAtOrUnder(String directory, String path) {
    return path.equals(directory) || RepositoryPaths.isStrictAncestor(directory, path);
  }

  /**
   * The protected locations a backend can hold read-only by mounting, under {@code root}: every
   * entry without wildcards, and the top-level instance of each {@code **}/name entry. Deeper
   * instances of {@code **} entries cannot be listed before they exist; the audit catches writes
   * to them.
   */
  public List<Path> mountablePaths(Path root) {
    List<Path> paths = new ArrayList<>();
    for (Entry entry : entries) {
      String literal = entry.source().startsWith("**/") ? entry.source().substring(3) : entry.source();
      if (literal.chars().noneMatch(c -> c == '*' || c == '?' || c == '[')) {
        paths.add(root.resolve(literal));
      }
    }
    return List.copyOf(paths);
  }

  /** The real paths of the repository's git directory and common directory, inside the repository or not. */
  public List<Path> gitDirectories() {
    return gitDirectories;
  }
}
