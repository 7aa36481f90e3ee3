package dev.capability.cli.internal;

import static dev.capability.testing.Git.git;

import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real repository whose three commits hold a {@code check.sh} that passes, fails and sleeps
 * past its timeout, an operator policy that allows {@code sh check.sh},
 * and evaluation configurations that compare those commits, written as an operator writes them:
 * outside the repository, in a private directory, mode 0600.
 */
final class EvaluationFixture {
  /** The wall-clock bound of the evaluation's commands: the third commit's check sleeps far beyond it. */
  static final int TIMEOUT_SECONDS = 3;

  /** The argument of the third commit's {@code sleep}, unique to this fixture, to find it among the host's processes. */
  final String sleep;
  final Path repository;
  final Path etc;
  final Path policy;
  final Path output;

  private EvaluationFixture(String sleep, Path repository, Path etc, Path policy, Path output) {
    this.sleep = sleep;
    this.repository = repository;
    this.etc = etc;
    this.policy = policy;
    this.output = output;
  }

  /** The repository, policy and output directory under {@code root}. */
  static EvaluationFixture create(Path root) throws IOException {
    String sleep = "86397." + Math.floorMod(new SecureRandom().nextLong(), 1_000_000_000L);
    Path repository = Git.init(root.resolve("repo"));
    // The ledger lives in the repository (.capability/), as for every command: ignored, as a user ignores it.
    Files.writeString(repository.resolve(".gitignore"), ".capability/\n");
    commit(repository, "exit 0\n", "passes");
    commit(repository, "echo 'expected 2, got 3' >&2\nexit 1\n", "fails");
    commit(repository, "sleep " + sleep + "\n", "hangs");
    Path etc = Files.createDirectories(root.resolve("etc"));
    Files.setPosixFilePermissions(etc, PosixFilePermissions.fromString("rwx------"));
    Path policy = etc.resolve("policy.json");
    write(policy, """
        {
          "version": 1,
          "network": "host",
          "timeoutMillis": 600000,
          "executables": {
            "sh": {"name": "sh", "exact": [["check.sh"]]}
          }
        }
        """);
    return new EvaluationFixture(sleep, repository.toRealPath(), etc.toRealPath(), policy.toRealPath(), root.toRealPath().resolve("out"));
  }

  private static void commit(Path repository, String check, String message) throws IOException {
    Files.writeString(repository.resolve("check.sh"), check);
    git(repository, "add", "-A");
    git(repository, "commit", "-q", "-m", message);
  }

  /** The configuration comparing the three commits (pass, fail, timeout) with {@code sh check.sh}, in the private directory. */
  Path threeCommits() throws IOException {
    return threeCommits("process");
  }

  /** {@link #threeCommits()} run under {@code backend}. */
  Path threeCommits(String backend) throws IOException {
    return config(etc.resolve("evaluation-" + backend + ".json"), backend, """
        [{"name": "pass", "ref": "main~2"}, {"name": "fail", "ref": "main~1"}, {"name": "timeout", "ref": "main"}]""",
        "[{\"name\": \"check\", \"argv\": [\"sh\", \"check.sh\"], \"timeoutSeconds\": " + TIMEOUT_SECONDS + "}]");
  }

  /** A configuration named {@code name} in the private directory with these candidates and commands (JSON arrays). */
  Path config(String name, String candidates, String commands) throws IOException {
    return config(etc.resolve(name), candidates, commands);
  }

  /** A configuration at {@code file} with these candidates and commands, run under the process backend. */
  Path config(Path file, String candidates, String commands) throws IOException {
    return config(file, "process", candidates, commands);
  }

  /** A configuration at {@code file} with these candidates and commands, run under {@code backend}. */
  Path config(Path file, String backend, String candidates, String commands) throws IOException {
    write(file, """
        {
          "version": 1,
          "repository": "%s",
          "policy": "%s",
          "outputDirectory": "%s",
          "backend": "%s",
          "candidates": %s,
          "commands": %s
        }
        """.formatted(repository, policy, output, backend, candidates, commands));
    return file;
  }

  /** What the CLI needs from the environment to find {@code sh}: the host's {@code PATH}. */
  static Map<String, String> environment() {
    return Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
  }

  /** Writes {@code text} to {@code file} with mode 0600, as an operator's file. */
  static void write(Path file, String text) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }

  /**
   * Everything of the main working tree an evaluation must not change: HEAD, every ref, the
   * status, the index byte for byte, and the list of worktrees.
   */
  List<String> mainTreeState() throws IOException {
    List<String> state = new ArrayList<>();
    state.add(git(repository, "symbolic-ref", "HEAD"));
    state.add(git(repository, "rev-parse", "HEAD"));
    state.add(git(repository, "for-each-ref", "--format=%(refname) %(objectname)"));
    state.add(git(repository, "status", "--porcelain=v1", "--untracked-files=all"));
    state.add(git(repository, "worktree", "list", "--porcelain"));
    state.add(java.util.HexFormat.of().formatHex(Files.readAllBytes(repository.resolve(".git/index"))));
    return state;
  }

  /** The worktree directories left under the output directory. */
  List<Path> leftWorktrees() throws IOException {
    Path worktrees = output.resolve("worktrees");
    if (!Files.isDirectory(worktrees, LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(worktrees)) {
      return entries.toList();
    }
  }

  /** The worktrees Git lists for the repository, the main one first. */
  List<String> gitWorktrees() {
    return git(repository, "worktree", "list", "--porcelain").lines()
        .filter(line -> line.startsWith("worktree ")).toList();
  }
}
