package dev.capability.kernel.core.internal.authority;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the real git CLI for tests, by argv, isolated from the user's and the system's configuration. */
final class Git {
  private Git() {}

  /** Output and exit code of one git run. */
  record Result(int exit, String output) {}

  /** Runs {@code git args...} in {@code directory} and requires exit 0. */
  static String git(Path directory, String... args) {
    Result result = run(directory, Map.of(), List.of(args));
    assertThat(result.exit()).as("git %s: %s", List.of(args), result.output()).isZero();
    return result.output();
  }

  /** Runs {@code argv} (argv[0] is git) in {@code directory} with the test environment plus {@code environment}. */
  static Result run(Path directory, Map<String, String> environment, List<String> args) {
    List<String> argv = new ArrayList<>();
    argv.add("git");
    argv.addAll(args);
    return exec(directory, baseEnvironment(directory, environment), argv);
  }

  /** Runs exactly {@code argv} with exactly {@code environment}. */
  static Result exec(Path directory, Map<String, String> environment, List<String> argv) {
    return exec(directory, environment, argv, "");
  }

  /** Runs exactly {@code argv} with exactly {@code environment}, {@code stdin} on its standard input. */
  static Result exec(Path directory, Map<String, String> environment, List<String> argv, String stdin) {
    Path output = null;
    try {
      // Output goes to a file, so a git that never ends is ended after the bound instead of blocking a read.
      output = java.nio.file.Files.createTempFile("git-test", ".out");
      ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile())
          .redirectErrorStream(true).redirectOutput(output.toFile());
      builder.environment().clear();
      builder.environment().putAll(environment);
      Process process = builder.start();
      try (var in = process.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // git stopped reading its input early; what it did is in its output and exit code.
      }
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new AssertionError("git did not finish: " + argv);
      }
      return new Result(process.exitValue(), java.nio.file.Files.readString(output));
    } catch (IOException e) {
      throw new AssertionError("cannot run " + argv, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      if (output != null) {
        output.toFile().delete();
      }
    }
  }

  /** PATH, a throwaway HOME, no system configuration, and a fixed identity. */
  static Map<String, String> baseEnvironment(Path home, Map<String, String> more) {
    Map<String, String> environment = new java.util.HashMap<>(Map.of(
        "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
        "HOME", home.toString(),
        "GIT_CONFIG_NOSYSTEM", "1",
        "GIT_AUTHOR_NAME", "test", "GIT_AUTHOR_EMAIL", "test@example.invalid",
        "GIT_COMMITTER_NAME", "test", "GIT_COMMITTER_EMAIL", "test@example.invalid"));
    environment.putAll(more);
    return environment;
  }

  /** A repository at {@code directory} with one commit. */
  static Path initWithCommit(Path directory) throws IOException {
    java.nio.file.Files.createDirectories(directory);
    git(directory, "init", "-q", "-b", "main");
    java.nio.file.Files.writeString(directory.resolve("README"), "hello\n");
    git(directory, "add", "README");
    git(directory, "commit", "-q", "-m", "first");
    return directory.toRealPath();
  }

  /** The uid this JVM runs as. */
  static int currentUid() {
    try {
      return (Integer) java.nio.file.Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException e) {
      throw new AssertionError("cannot read this process's uid", e);
    }
  }

  /** Gives {@code root} and everything below it to {@code uid}, links themselves rather than their targets. */
  static void chownTree(Path root, int uid) throws IOException {
    try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        java.nio.file.Files.setAttribute(path, "unix:uid", uid, java.nio.file.LinkOption.NOFOLLOW_LINKS);
      }
    }
  }
}
