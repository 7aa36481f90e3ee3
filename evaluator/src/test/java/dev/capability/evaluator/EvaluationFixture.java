package dev.capability.evaluator;

import static dev.capability.testing.Git.git;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A real repository with three commits whose test (a one-file Java program run as {@code java
 * Check.java}) passes, fails and never ends; the operator's private directory with the policy and
 * the configuration; and the output directory. Everything lies under one test directory that any
 * uid can traverse, since bwrap runs the commands as another uid when the JVM is root.
 */
final class EvaluationFixture {
  /** An argument only the interruption test's {@code sleep} has, to find it among all processes. */
  static final String SLEEP_MARKER = "317.713";

  static final String PASSING = "class Check { public static void main(String[] a) { System.out.println(\"all good\"); } }\n";
  static final String FAILING = "class Check { public static void main(String[] a) {"
      + " System.err.println(\"expected 5 but was -1\"); System.exit(1); } }\n";
  static final String HANGING = "class Check { public static void main(String[] a) throws Exception { Thread.sleep(600_000); } }\n";

  final Path root;
  final Path repository;
  final Path operator;
  final Path policy;
  final Path output;
  final String passCommit;
  final String failCommit;
  final String hangCommit;

  EvaluationFixture(Path tmp) throws IOException {
    Files.setAttribute(tmp, "unix:mode", 0755);
    root = tmp.toRealPath();
    repository = Git.init(root.resolve("repo")).toRealPath();
    passCommit = commit(PASSING, "PASS", "passing");
    failCommit = commit(FAILING, "FAIL", "failing");
    hangCommit = commit(HANGING, "PASS", "hanging");
    git(repository, "branch", "candidate/pass", passCommit);
    // The main tree is in the middle of something: a staged change and an untracked file.
    Files.writeString(repository.resolve("status.txt"), "staged\n");
    git(repository, "add", "status.txt");
    Files.writeString(repository.resolve("notes.txt"), "untracked\n");
    operator = Files.createDirectory(root.resolve("operator"));
    Files.setPosixFilePermissions(operator, PosixFilePermissions.fromString("rwx------"));
    policy = operatorFile("policy.json", ExecutionPolicies.toJson(policy().build()));
    output = root.resolve("out");
  }

  private String commit(String check, String status, String message) throws IOException {
    Files.writeString(repository.resolve("Check.java"), check);
    Files.writeString(repository.resolve("status.txt"), status + "\n");
    git(repository, "add", "Check.java", "status.txt");
    git(repository, "commit", "-q", "-m", message);
    return git(repository, "rev-parse", "HEAD").strip();
  }

  /** The operator's policy: the test program, a check of the status file, and the interruption test's long sleep. */
  static ExecutionPolicy.Builder policy() {
    return ExecutionPolicy.builder()
        .network(NetworkMode.NONE)
        .executable(ExecutableRule.named("java").exact("Check.java").build())
        .executable(ExecutableRule.named("grep").exact("-q", "PASS", "status.txt").build())
        .executable(ExecutableRule.named("sleep").exact(SLEEP_MARKER).build());
  }

  /** Writes {@code content} to the operator's private directory, mode 0600. */
  Path operatorFile(String name, String content) throws IOException {
    Path file = operator.resolve(name);
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /** A configuration of the three commits (by id, by branch) and {@code commands} (JSON array members), as a JSON document. */
  String config(String commands, String extra) {
    return "{\"version\": 1, \"repository\": \"" + repository + "\", \"policy\": \"" + policy + "\", \"outputDirectory\": \""
        + output + "\", \"candidates\": [{\"name\": \"pass\", \"ref\": \"candidate/pass\"}, {\"name\": \"fail\", \"ref\": \""
        + failCommit + "\"}, {\"name\": \"hang\", \"ref\": \"main\"}], \"commands\": [" + commands + "]" + extra + "}";
  }

  /** The test command with a 20 s bound: the hanging commit's program is ended at it. */
  static final String TEST_COMMAND = "{\"name\": \"test\", \"command\": \"java Check.java\", \"timeoutSeconds\": 20}";

  /** A kernel factory on a new backend of {@code provider}, which the evaluator closes with its kernel. */
  static Function<LoadedPolicy, CommandKernel> kernels(BackendProvider provider) {
    return policy -> CommandKernel.builder(policy)
        .discoverBackends(false)
        .backend(provider.create(BackendConfig.defaults()))
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .build();
  }

  static Function<LoadedPolicy, CommandKernel> bwrap() {
    return kernels(new BwrapBackendProvider());
  }

  /**
   * What the evaluator must leave as it was: the main tree's status with its branch, HEAD, every
   * ref, the index file's bytes and the list of worktrees.
   */
  List<Object> mainTreeState() throws IOException {
    List<Object> state = new ArrayList<>();
    state.add(git(repository, "status", "--porcelain=v2", "--branch", "--untracked-files=all"));
    state.add(git(repository, "rev-parse", "HEAD"));
    state.add(git(repository, "symbolic-ref", "HEAD"));
    state.add(git(repository, "for-each-ref"));
    state.add(git(repository, "worktree", "list", "--porcelain"));
    state.add(List.of(Files.readString(repository.resolve("status.txt")), Files.readString(repository.resolve("notes.txt"))));
    state.add(HexFormat.of().formatHex(Files.readAllBytes(repository.resolve(".git/index"))));
    return state;
  }
}
