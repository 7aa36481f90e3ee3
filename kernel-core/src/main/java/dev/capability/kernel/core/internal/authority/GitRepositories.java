package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.GIT_CONFIGURATION_UNREADABLE;

import dev.capability.kernel.api.authority.AuthorityException;
import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.FileVisitor;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The repositories below a work tree that git may open on its own: every {@code .git} (directory,
 * {@code gitdir:} file or link) at any depth of the work tree, which is how submodules, nested
 * repositories and embedded repositories look, and every git directory under a
 * {@code modules} directory of a common directory, where absorbed submodules keep theirs. A
 * submodule is entered by {@code git status --ignore-submodules=none}, {@code --recurse-submodules}
 * and {@code git submodule}, each in a git process that reads that repository's configuration.
 *
 * <p>The search is bounded: at most {@value #MAX_DIRECTORIES} directories, {@value #MAX_DEPTH}
 * levels and {@value #MAX_REPOSITORIES} repositories. Beyond a bound, or at a directory that cannot
 * be read, the search fails ({@code GIT_CONFIGURATION_UNREADABLE}) rather than miss a repository.
 */
final class GitRepositories {
  private GitRepositories() {}

  /** The most directories visited. */
  static final int MAX_DIRECTORIES = 1_000_000;
  /** The deepest directory level visited below a work tree or a modules directory. */
  static final int MAX_DEPTH = 256;
  /** The most repositories found below one repository. */
  static final int MAX_REPOSITORIES = 100;

  /**
   * How far a search goes.
   *
   * @param directories the most directories visited
   * @param depth the deepest level visited below a work tree or a modules directory
   * @param repositories the most repositories found
   */
  record Bounds(int directories, int depth, int repositories) {
    static final Bounds DEFAULT = new Bounds(MAX_DIRECTORIES, MAX_DEPTH, MAX_REPOSITORIES);
  }

  private static final String DOT_GIT = ".git";

  /**
   * One repository git may open.
   *
   * @param gitDirectory the real path of its git directory
   * @param workTree the real path of its work tree, when it was found through one
   */
  record Repository(Path gitDirectory, Optional<Path> workTree) {
    Repository {
      Objects.requireNonNull(gitDirectory, "gitDirectory");
      Objects.requireNonNull(workTree, "workTree");
    }
  }

  /**
   * The repositories below the repository with git directory {@code gitDirectory}, common
   * directory {@code commonDirectory} and work tree {@code workTree} (absent for a bare one), that
   * repository itself not included.
   *
   * @throws AuthorityException {@code GIT_CONFIGURATION_UNREADABLE} beyond a bound, for a directory
   *     that cannot be read, or {@code GIT_DIRECTORY_INVALID} for a {@code .git} that leads nowhere
   */
  static List<Repository> below(Path gitDirectory, Path commonDirectory, Optional<Path> workTree) {
    return below(gitDirectory, commonDirectory, workTree, Bounds.DEFAULT);
  }

  /** {@link #below(Path, Path, Optional)} within {@code bounds}. */
  static List<Repository> below(Path gitDirectory, Path commonDirectory, Optional<Path> workTree, Bounds bounds) {
    Search search = new Search(bounds);
    search.seen.add(gitDirectory);
    search.seen.add(commonDirectory);
    workTree.ifPresent(search::walkWorkTree);
    search.walkModules(commonDirectory);
    Deque<Repository> pending = new ArrayDeque<>(search.found.values());
    while (!pending.isEmpty()) {
      Repository repository = pending.pop();
      GitLocations locations = GitLocations.ofGitDirectory(repository.gitDirectory());
      int before = search.found.size();
      search.walkModules(locations.commonDirectory().orElse(repository.gitDirectory()));
      new ArrayList<>(search.found.values()).subList(before, search.found.size()).forEach(pending::add);
    }
    return List.copyOf(search.found.values());
  }

  /** The state of one search: what was found, and how much was visited. */
  private static final class Search {
    final Bounds bounds;
    final Map<Path, Repository> found = new LinkedHashMap<>();
    final Set<Path> seen = new HashSet<>();
    /** Modules directories already searched: linked worktrees share their common directory's. */
    final Set<Path> walkedModules = new HashSet<>();
    int directories;

    Search(Bounds bounds) {
      this.bounds = bounds;
    }

    /** Every {@code .git} below {@code workTree}, its own excepted. */
    void walkWorkTree(Path workTree) {
      walk(workTree, new Visitor(workTree) {
        @Override
        boolean enter(Path directory) {
          if (directory.getFileName() != null && directory.getFileName().toString().equals(DOT_GIT)) {
            add(directory.getParent(), workTree);
            return false;
          }
          return true;
        }

        @Override
        void file(Path file) {
          if (file.getFileName().toString().equals(DOT_GIT)) {
            add(file.getParent(), workTree);
          }
        }
      });
    }

    /** Every git directory below {@code commonDirectory/modules}, each with a {@code HEAD}. */
    void walkModules(Path commonDirectory) {
      Path modules = commonDirectory.resolve("modules");
      if (!Files.isDirectory(modules, LinkOption.NOFOLLOW_LINKS) || !walkedModules.add(modules)) {
        return;
      }
      walk(modules, new Visitor(modules) {
        @Override
        boolean enter(Path directory) {
          if (!Files.exists(directory.resolve("HEAD"), LinkOption.NOFOLLOW_LINKS)) {
            return true;
          }
          addGitDirectory(directory);
          // Its own submodules are found when this repository's modules are walked in turn.
          return false;
        }

        @Override
        void file(Path file) {
          // git follows a link here, as it follows a gitdir: file that leads here.
          if (Files.isDirectory(file) && Files.exists(file.resolve("HEAD"))) {
            addGitDirectory(file);
          }
        }
      });
    }

    private void addGitDirectory(Path directory) {
      Path real = realDirectory(directory);
      if (seen.add(real)) {
        remember(new Repository(real, Optional.empty()));
      }
    }

    private void add(Path workTree, Path searched) {
      if (workTree.equals(searched)) {
        return;
      }
      GitLocations locations = GitLocations.of(workTree);
      Path gitDirectory = locations.gitDirectory().orElseThrow();
      if (seen.add(gitDirectory)) {
        remember(new Repository(gitDirectory, Optional.of(workTree)));
      }
      locations.commonDirectory().ifPresent(seen::add);
    }

    private void remember(Repository repository) {
      if (found.size() >= bounds.repositories()) {
        throw unreadable("more than " + bounds.repositories() + " git repositories lie below the repository; the kernel"
            + " lists the configuration of at most " + bounds.repositories());
      }
      found.put(repository.gitDirectory(), repository);
    }

    private void walk(Path root, Visitor visitor) {
      try {
        Files.walkFileTree(root, EnumSet.noneOf(FileVisitOption.class), bounds.depth(), visitor);
      } catch (IOException e) {
        throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE,
            "the repositories below " + root + " could not be listed: " + e.getMessage(), e);
      }
    }

    /** Visits directories without following links, within the bounds. */
    private abstract class Visitor implements FileVisitor<Path> {
      private final Path root;

      Visitor(Path root) {
        this.root = root;
      }

      /** Whether to look inside {@code directory}. */
      abstract boolean enter(Path directory);

      /** Sees a file, a link or a special file. */
      abstract void file(Path file);

      @Override
      public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
        if (++directories > bounds.directories()) {
          throw unreadable("more than " + bounds.directories() + " directories to search for git repositories below " + root);
        }
        return directory.equals(root) || enter(directory) ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isDirectory()) {
          // Only a directory at the depth bound is handed here: what lies below it is not searched.
          throw unreadable(file + " lies " + bounds.depth() + " levels below " + root
              + "; the kernel searches no deeper for git repositories");
        }
        file(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE,
            file + " cannot be searched for git repositories: " + e.getMessage(), e);
      }

      @Override
      public FileVisitResult postVisitDirectory(Path directory, IOException e) {
        if (e != null) {
          throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE,
              directory + " cannot be searched for git repositories: " + e.getMessage(), e);
        }
        return FileVisitResult.CONTINUE;
      }
    }
  }

  private static Path realDirectory(Path directory) {
    try {
      return directory.toRealPath();
    } catch (IOException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, directory + " cannot be resolved: " + e.getMessage(), e);
    }
  }

  private static AuthorityException unreadable(String message) {
    return new AuthorityException(GIT_CONFIGURATION_UNREADABLE, message);
  }
}
