package dev.capability.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code git} CLI for tests, as fixture builder and as oracle. It is run by argv, never
 * through a shell, in an environment of its own: {@code PATH}, a throwaway {@code HOME}, no system
 * configuration and a fixed identity, so only the repository itself (and what a test passes)
 * decides. Every run is bounded: it is ended after 60 seconds, and a stream longer than 16 MiB
 * fails the test instead of being read into memory.
 */
public final class Git {
  /** How long one run may take before it is ended and the test fails. */
  static final long TIMEOUT_SECONDS = 60;

  /** The most of either output stream a test reads back. */
  static final long MAX_OUTPUT_BYTES = 16L * 1024 * 1024;

  /** The {@code HOME} of {@link #git}, {@link #run} and {@link #environment()}: empty, this JVM's own. */
  private static final Path HOME = createHome();

  private Git() {}

  /**
   * What one run printed and how it ended.
   *
   * @param exitCode the exit code
   * @param stdout the standard output, decoded as UTF-8 (malformed bytes replaced)
   * @param stderr the standard error, decoded likewise
   */
  public record Result(int exitCode, String stdout, String stderr) {
    /** The standard output followed by the standard error, for messages and checks on whatever git printed. */
    public String output() {
      return stdout + stderr;
    }

    /**
     * The tree id a {@link #writeTree} printed.
     *
     * @throws AssertionError when git failed
     */
    public String tree() {
      if (exitCode != 0) {
        throw new AssertionError("git failed (" + exitCode + "): " + stderr);
      }
      return stdout.strip();
    }
  }

  /**
   * Runs {@code git args...} in {@code directory} in the test environment and returns its standard
   * output.
   *
   * @throws AssertionError when git exits non-zero, naming the arguments and what git said
   */
  public static String git(Path directory, String... args) {
    Result result = run(directory, Map.of(), args);
    if (result.exitCode() != 0) {
      throw new AssertionError(
          "git " + String.join(" ", args) + " failed (" + result.exitCode() + "): " + result.output());
    }
    return result.stdout();
  }

  /** Runs {@code git args...} in {@code directory} in the test environment plus {@code extra}. */
  public static Result run(Path directory, Map<String, String> extra, String... args) {
    List<String> argv = new ArrayList<>();
    argv.add("git");
    argv.addAll(List.of(args));
    return exec(directory, environment(HOME, extra), argv);
  }

  /**
   * Runs exactly {@code argv} (git, or a program for fixtures git cannot make, such as FIFOs) with
   * exactly {@code environment}, nothing on its standard input.
   */
  public static Result exec(Path directory, Map<String, String> environment, List<String> argv) {
    return exec(directory, environment, argv, "");
  }

  /** Runs exactly {@code argv} with exactly {@code environment}, {@code stdin} on its standard input. */
  public static Result exec(Path directory, Map<String, String> environment, List<String> argv, String stdin) {
    Path stdout = null;
    Path stderr = null;
    try {
      // The output goes to files, so a run that never ends is ended after the bound instead of blocking a read.
      stdout = Files.createTempFile("git-test", ".out");
      stderr = Files.createTempFile("git-test", ".err");
      ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile())
          .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
      builder.environment().clear();
      builder.environment().putAll(environment);
      Process process = builder.start();
      try (var in = process.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // The program stopped reading its input early; what it did is in its output and exit code.
      }
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new AssertionError(argv + " did not finish within " + TIMEOUT_SECONDS + " s");
      }
      return new Result(process.exitValue(), read(stdout, argv), read(stderr, argv));
    } catch (IOException e) {
      throw new AssertionError("cannot run " + argv, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      delete(stdout);
      delete(stderr);
    }
  }

  /** The test environment with this JVM's throwaway {@code HOME}. */
  public static Map<String, String> environment() {
    return environment(HOME, Map.of());
  }

  /** {@code PATH}, {@code home} as {@code HOME}, no system configuration and a fixed identity, then {@code more}. */
  public static Map<String, String> environment(Path home, Map<String, String> more) {
    Map<String, String> environment = new HashMap<>(Map.of(
        "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
        "HOME", home.toString(),
        "GIT_CONFIG_NOSYSTEM", "1",
        "GIT_AUTHOR_NAME", "test", "GIT_AUTHOR_EMAIL", "test@example.invalid",
        "GIT_COMMITTER_NAME", "test", "GIT_COMMITTER_EMAIL", "test@example.invalid"));
    environment.putAll(more);
    return environment;
  }

  /** A new repository at {@code directory} (created if missing) with {@code main} as its initial branch. */
  public static Path init(Path directory) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    git(directory, "init", "-q", "-b", "main");
    return directory;
  }

  /** A repository at {@code directory} with one commit of a {@code README}, as its real path. */
  public static Path initWithCommit(Path directory) throws IOException {
    init(directory);
    Files.writeString(directory.resolve("README"), "hello\n");
    git(directory, "add", "README");
    git(directory, "commit", "-q", "-m", "first");
    return directory.toRealPath();
  }

  /**
   * What {@code git add -A && git write-tree} prints for the working tree at {@code repository},
   * run on a copy of its index with new objects going to {@code scratch}, so the repository itself
   * is not written. A directory without {@code .git} is treated as a new repository.
   */
  public static Result writeTree(Path repository, Path scratch) {
    try {
      Path objects = Files.createDirectories(scratch.resolve("objects"));
      Path index = scratch.resolve("index");
      Files.deleteIfExists(index);
      Map<String, String> environment;
      if (Files.exists(repository.resolve(".git"))) {
        Path gitDirectory = Path.of(git(repository, "rev-parse", "--absolute-git-dir").strip());
        if (Files.exists(gitDirectory.resolve("index"))) {
          Files.copy(gitDirectory.resolve("index"), index, StandardCopyOption.REPLACE_EXISTING);
        }
        String commonDirectory = git(repository, "rev-parse", "--git-common-dir").strip();
        Path alternates = repository.resolve(commonDirectory).resolve("objects").toAbsolutePath().normalize();
        environment = Map.of(
            "GIT_INDEX_FILE", index.toString(),
            "GIT_OBJECT_DIRECTORY", objects.toString(),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES", alternates.toString());
      } else {
        Path gitDirectory = scratch.resolve("git");
        git(scratch, "init", "-q", "--bare", gitDirectory.toString());
        environment = Map.of(
            "GIT_DIR", gitDirectory.toString(),
            "GIT_WORK_TREE", repository.toString(),
            "GIT_INDEX_FILE", index.toString());
      }
      Result add = run(repository, environment, "add", "-A");
      if (add.exitCode() != 0) {
        return add;
      }
      return run(repository, environment, "write-tree");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file, List<String> argv) throws IOException {
    long size = Files.size(file);
    if (size > MAX_OUTPUT_BYTES) {
      throw new AssertionError(argv + " printed " + size + " bytes, more than the " + MAX_OUTPUT_BYTES + " a test reads");
    }
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }

  private static void delete(Path file) {
    if (file != null) {
      file.toFile().delete();
    }
  }

  private static Path createHome() {
    try {
      Path home = Files.createTempDirectory("git-test-home");
      home.toFile().deleteOnExit();
      return home;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
