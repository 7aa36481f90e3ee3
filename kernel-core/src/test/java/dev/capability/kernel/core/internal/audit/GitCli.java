package dev.capability.kernel.core.internal.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The real {@code git} CLI as fixture and oracle, run by argv with a clean environment: no system
 * or global configuration, so only the repository itself decides.
 */
final class GitCli {
  private static final Path HOME = createHome();

  private GitCli() {}

  /** Runs {@code git args...} in {@code dir} and returns its standard output; fails on non-zero exit. */
  static String git(Path dir, String... args) {
    Result result = run(dir, Map.of(), args);
    if (result.exitCode() != 0) {
      throw new AssertionError("git " + String.join(" ", args) + " failed (" + result.exitCode() + "): " + result.stderr());
    }
    return result.stdout();
  }

  /** Runs {@code git args...} in {@code dir} with extra environment variables. */
  static Result run(Path dir, Map<String, String> environment, String... args) {
    List<String> argv = new ArrayList<>();
    argv.add("git");
    argv.addAll(List.of(args));
    return exec(dir, environment, argv);
  }

  /** Runs any program by argv, for fixtures git cannot make (FIFOs, odd file names). */
  static Result exec(Path dir, Map<String, String> environment, List<String> argv) {
    ProcessBuilder builder = new ProcessBuilder(argv).directory(dir.toFile());
    Map<String, String> env = builder.environment();
    String path = env.get("PATH");
    env.clear();
    env.put("PATH", path);
    env.put("HOME", HOME.toString());
    env.put("XDG_CONFIG_HOME", HOME.resolve(".config").toString());
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    env.put("GIT_AUTHOR_NAME", "Audit Test");
    env.put("GIT_AUTHOR_EMAIL", "audit@example.invalid");
    env.put("GIT_COMMITTER_NAME", "Audit Test");
    env.put("GIT_COMMITTER_EMAIL", "audit@example.invalid");
    env.put("LANG", "C.UTF-8");
    env.putAll(environment);
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      byte[] err = process.getErrorStream().readAllBytes();
      byte[] out = process.getInputStream().readAllBytes();
      int exit = process.waitFor();
      return new Result(exit, new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A new repository with {@code main} as its initial branch. */
  static Path init(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    git(dir, "init", "-q", "-b", "main");
    return dir;
  }

  /**
   * What {@code git add -A && git write-tree} prints for the working tree at {@code repo}, run on a
   * copy of its index with new objects going to a scratch directory, so the repository itself is
   * not written. A directory without {@code .git} is treated as a new repository.
   */
  static Result writeTree(Path repo, Path scratch) {
    try {
      Path objects = Files.createDirectories(scratch.resolve("objects"));
      Path index = scratch.resolve("index");
      Files.deleteIfExists(index);
      Map<String, String> env;
      if (Files.exists(repo.resolve(".git"))) {
        Path gitDir = Path.of(git(repo, "rev-parse", "--absolute-git-dir").strip());
        if (Files.exists(gitDir.resolve("index"))) {
          Files.copy(gitDir.resolve("index"), index, StandardCopyOption.REPLACE_EXISTING);
        }
        String commonDir = git(repo, "rev-parse", "--git-common-dir").strip();
        Path alternates = repo.resolve(commonDir).resolve("objects").toAbsolutePath().normalize();
        env = Map.of(
            "GIT_INDEX_FILE", index.toString(),
            "GIT_OBJECT_DIRECTORY", objects.toString(),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES", alternates.toString());
      } else {
        Path gitDir = scratch.resolve("git");
        exec(scratch, Map.of(), List.of("git", "init", "-q", "--bare", gitDir.toString()));
        env = Map.of("GIT_DIR", gitDir.toString(), "GIT_WORK_TREE", repo.toString(), "GIT_INDEX_FILE", index.toString());
      }
      Result add = run(repo, env, "add", "-A");
      if (add.exitCode() != 0) {
        return add;
      }
      return run(repo, env, "write-tree");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path createHome() {
    try {
      Path home = Files.createTempDirectory("audit-git-home");
      home.toFile().deleteOnExit();
      Files.createDirectories(home.resolve(".config")).toFile().deleteOnExit();
      return home;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Result(int exitCode, String stdout, String stderr) {
    String tree() {
      if (exitCode != 0) {
        throw new AssertionError("git failed (" + exitCode + "): " + stderr);
      }
      return stdout.strip();
    }
  }
}
