package dev.capability.workspace.internal;

import dev.capability.workspace.WorkspaceLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The repository as the shipped workspace sees it: its real path, the writable roots and protected
 * paths as repository-relative POSIX names ({@code ""} is the repository itself), and the limits.
 */
public final class WorkspaceLayout {
  private final Path repository;
  private final List<String> roots;
  private final List<String> protectedPaths;
  private final WorkspaceLimits limits;

  private WorkspaceLayout(Path repository, List<String> roots, List<String> protectedPaths, WorkspaceLimits limits) {
    this.repository = repository;
    this.roots = roots;
    this.protectedPaths = protectedPaths;
    this.limits = limits;
  }

  /**
   * @throws IllegalArgumentException when {@code repository} is not a directory or a root lies
   *     outside it
   */
  public static WorkspaceLayout of(Path repository, List<Path> writableRoots, List<Path> protectedPaths, WorkspaceLimits limits) {
    Path real;
    try {
      real = repository.toRealPath();
    } catch (IOException e) {
      throw new IllegalArgumentException("the repository " + repository + " cannot be resolved: " + e.getMessage(), e);
    }
    if (!Files.isDirectory(real)) {
      throw new IllegalArgumentException("the repository " + repository + " is not a directory");
    }
    TreeSet<String> roots = new TreeSet<>();
    for (Path root : writableRoots) {
      roots.add(relative(repository, real, root).orElseThrow(
          () -> new IllegalArgumentException("the writable root " + root + " lies outside the repository " + repository)));
    }
    List<String> outermost = roots.stream()
        .filter(root -> roots.stream().noneMatch(other -> !other.equals(root) && contains(other, root)))
        .toList();
    List<String> protectedNames = new ArrayList<>();
    for (Path path : protectedPaths) {
      relative(repository, real, path).filter(p -> !p.isEmpty()).ifPresent(protectedNames::add);
    }
    return new WorkspaceLayout(real, outermost, List.copyOf(protectedNames), limits);
  }

  private static Optional<String> relative(Path given, Path real, Path path) {
    Path normalized = path.normalize();
    Path relative;
    if (normalized.isAbsolute()) {
      if (normalized.startsWith(real)) {
        relative = real.relativize(normalized);
      } else if (normalized.startsWith(given.toAbsolutePath().normalize())) {
        relative = given.toAbsolutePath().normalize().relativize(normalized);
      } else {
        return Optional.empty();
      }
    } else {
      relative = normalized;
    }
    String name = relative.toString();
    if (name.equals("..") || name.startsWith("../")) {
      return Optional.empty();
    }
    return Optional.of(name);
  }

  /** Whether {@code path} is {@code ancestor} or lies below it ({@code ""} contains every path). */
  public static boolean contains(String ancestor, String path) {
    return ancestor.isEmpty() || path.equals(ancestor) || path.startsWith(ancestor + "/");
  }

  /** The repository's real path. */
  public Path repository() {
    return repository;
  }

  /** The outermost writable roots, repository-relative, sorted. */
  public List<String> roots() {
    return roots;
  }

  /** The writable roots as relative paths, as {@link dev.capability.kernel.api.backend.ShippedWorkspace#writableRoots()} gives them. */
  public List<Path> writableRootPaths() {
    return roots.stream().map(Path::of).toList();
  }

  public WorkspaceLimits limits() {
    return limits;
  }

  /** The writable root holding {@code path}, if any. */
  public Optional<String> rootOf(String path) {
    return roots.stream().filter(root -> contains(root, path)).findFirst();
  }

  /** Whether {@code path} is a protected path, lies below one, or has a {@code .git} segment. */
  public boolean isProtected(String path) {
    for (String segment : path.split("/", -1)) {
      if (segment.equals(".git")) {
        return true;
      }
    }
    return protectedPaths.stream().anyMatch(p -> contains(p, path));
  }

  /** Whether a protected path lies strictly below {@code path}. */
  public boolean holdsProtected(String path) {
    return protectedPaths.stream().anyMatch(p -> !p.equals(path) && contains(path, p));
  }

  /** Whether {@code path} is shipped writable: inside a writable root and not protected. */
  public boolean isWritable(String path) {
    return rootOf(path).isPresent() && !isProtected(path);
  }

  /** {@code path} on this host. */
  public Path resolve(String path) {
    return path.isEmpty() ? repository : repository.resolve(path);
  }
}
