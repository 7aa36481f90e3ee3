package dev.capability.evaluator.internal;

import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_GIT_FAILED;

import dev.capability.evaluator.EvaluationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The evaluator's Git worktrees, all in one directory under the output directory
 * ({@value #DIRECTORY}), each named {@code <evaluation id>-<candidate number>}. Only the evaluator
 * writes there, under the output directory's lock, so at the start of a run anything found there
 * was left by a run that crashed, and is removed. Candidates running in parallel add and remove
 * their worktrees one at a time: Git does not promise that its worktree commands (an add, a remove,
 * the prune after it) run safely at once on one repository.
 */
final class Worktrees {
  /** The directory under the output directory that holds the worktrees. */
  static final String DIRECTORY = "worktrees";

  private final GitRunner git;
  private final Path root;

  Worktrees(GitRunner git, Path outputDirectory) {
    this.git = git;
    this.root = outputDirectory.resolve(DIRECTORY);
  }

  /** The directory of every worktree. */
  Path root() {
    return root;
  }

  /**
   * Removes every worktree an earlier run left: those Git lists under {@link #root()} and any
   * directory still there; then prunes Git's records of worktrees whose directory is gone.
   *
   * @return the paths removed, sorted
   */
  List<String> pruneStale() {
    List<Path> stale = new ArrayList<>(registered());
    if (Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
      try (Stream<Path> entries = Files.list(root)) {
        entries.filter(p -> !stale.contains(p)).forEach(stale::add);
      } catch (IOException e) {
        throw new EvaluationException(EVALUATION_GIT_FAILED, "cannot list " + root + ": " + e, e);
      }
    }
    List<String> removed = new ArrayList<>();
    for (Path path : stale) {
      remove(path);
      removed.add(path.toString());
    }
    if (stale.isEmpty()) {
      git.check("worktree", "prune");
    }
    removed.sort(null);
    return removed;
  }

  /** The worktrees Git knows of under {@link #root()}. */
  private List<Path> registered() {
    List<Path> paths = new ArrayList<>();
    for (String line : git.check("worktree", "list", "--porcelain", "-z").split("\0")) {
      if (line.startsWith("worktree ")) {
        Path path = Path.of(line.substring("worktree ".length()));
        if (path.startsWith(root) && !path.equals(root)) {
          paths.add(path);
        }
      }
    }
    return paths;
  }

  /**
   * Checks out {@code commit}, detached, in a new worktree at {@code root/name}.
   *
   * @throws EvaluationException {@code EVALUATION_GIT_FAILED} when git refuses; nothing is left behind then
   */
  synchronized Path add(String name, String commit) {
    Path path = root.resolve(name);
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new EvaluationException(EVALUATION_GIT_FAILED, "cannot create " + root + ": " + e, e);
    }
    GitRunner.Result result = git.run("worktree", "add", "--detach", "--quiet", path.toString(), commit);
    if (!result.ok()) {
      remove(path);
      throw new EvaluationException(EVALUATION_GIT_FAILED, "git worktree add " + path + " " + commit + " failed (" + result.exitCode()
          + "): " + result.stderr().strip());
    }
    return path;
  }

  /**
   * Removes the worktree at {@code path}: {@code git worktree remove --force}, then whatever is
   * still on disk (files a command made unremovable for Git), then {@code git worktree prune}.
   *
   * @throws EvaluationException {@code EVALUATION_GIT_FAILED} when the directory is still there afterwards
   */
  synchronized void remove(Path path) {
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      git.run("worktree", "remove", "--force", "--force", path.toString());
    }
    try {
      Trees.delete(path);
    } catch (IOException e) {
      throw new EvaluationException(EVALUATION_GIT_FAILED, "cannot delete the worktree " + path + ": " + e, e);
    } finally {
      git.run("worktree", "prune");
    }
  }
}
