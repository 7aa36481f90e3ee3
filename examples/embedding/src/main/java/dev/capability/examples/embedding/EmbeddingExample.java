package dev.capability.examples.embedding;

// embedding-imports:start
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import java.nio.file.Path;
import java.util.List;
// embedding-imports:end
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A host application embedding the kernel: it runs {@code git status --short}, which its policy
 * allows, and {@code git log}, which it does not, in the repository named on the command line,
 * and prints each outcome. docs/embedding.md quotes this file.
 *
 * <p>Usage: {@code EmbeddingExample REPOSITORY}. The policy is written to a new private
 * directory, as an operator would install it: outside the repository, owned by this user,
 * writable by no one else.
 */
public final class EmbeddingExample {
  /**
   * The operator's policy: {@code git status} with {@code --short} and nothing else, no network,
   * no writes to the repository, and only {@code PATH} and {@code LANG} from the environment.
   */
  static final String POLICY = """
      {
        "version": 1,
        "timeoutMillis": 60000,
        "network": "none",
        "projectWrites": "read-only",
        "environment": {"inherit": ["PATH", "LANG"]},
        "executables": {
          "git": {
            "name": "git",
            "arguments": {"subcommands": {"status": {"flags": {"--short": {}}}}}
          }
        }
      }
      """;

  private EmbeddingExample() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: EmbeddingExample REPOSITORY");
      System.exit(2);
    }
    Path repository = Path.of(args[0]).toRealPath();
    Path policyDirectory = Files.createTempDirectory("capability-policy-");
    Path policyFile = writePolicy(policyDirectory);
    try {
      for (ExecutionResult result : run(policyFile, repository)) {
        System.out.println(describe(result));
      }
    } finally {
      Files.delete(policyFile);
      Files.delete(policyDirectory);
    }
  }

  /** Writes {@link #POLICY} as {@code policy.json} in {@code directory}, readable and writable by this user only. */
  static Path writePolicy(Path directory) throws IOException {
    Path file = directory.resolve("policy.json");
    Files.writeString(file, POLICY, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /** Runs the allowed {@code git status --short} and the refused {@code git log} in {@code repository}. */
  static List<ExecutionResult> run(Path policyFile, Path repository) {
    // embedding-run:start
    LoadedPolicy policy = ExecutionPolicies.load(policyFile, repository);
    try (CommandKernel kernel = CommandKernel.builder(policy).build()) {
      ExecutionResult status = kernel.execute(
          ExecutionRequest.argv("git", "status", "--short").repository(repository).build());
      ExecutionResult log = kernel.execute(
          ExecutionRequest.argv("git", "log").repository(repository).build());
      return List.of(status, log);
    }
    // embedding-run:end
  }

  /** One line for an outcome, then the command's output when it ran. */
  static String describe(ExecutionResult result) {
    // embedding-describe:start
    return switch (result.status()) {
      case COMPLETED -> String.join(" ", result.argv()) + ": exit " + result.exitCode().getAsInt()
          + " on backend " + result.attestation().backend().id() + "\n" + result.stdout().text();
      case DENIED -> String.join(" ", result.argv()) + ": " + result.decision().code()
          + ": " + result.decision().message();
      case TIMED_OUT, OUTPUT_LIMIT, MEMORY_LIMIT, PROCESS_LIMIT, FILE_SIZE_LIMIT, WRITE_LIMIT, LAUNCH_FAILED, WORKSPACE_REFUSED -> String.join(" ", result.argv()) + ": "
          + result.status() + ": " + result.failureMessage();
    };
    // embedding-describe:end
  }
}
