package dev.capability.integrations.springai;

import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A repository and an operator policy for it, as an operator installs one: the policy in a private
 * directory outside the repository, owned by this user, mode 0600. The policy allows {@code git
 * status --short} and nothing else.
 */
final class PolicyFixture {
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

  final Path repository;
  final Path policy;

  private PolicyFixture(Path repository, Path policy) {
    this.repository = repository;
    this.policy = policy;
  }

  /**
   * A git repository holding one untracked {@code hello.txt}, and the policy, under {@code temp}.
   * {@code temp} is opened to everyone for reading, since the sandbox may run as another user.
   */
  static PolicyFixture create(Path temp) throws IOException {
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path repository = Git.init(Files.createDirectory(temp.resolve("repository"))).toRealPath();
    Files.writeString(repository.resolve("hello.txt"), "hello\n");
    Path policyDirectory = Files.createDirectory(temp.resolve("policy"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path policy = policyDirectory.resolve("policy.json");
    Files.writeString(policy, POLICY, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
    return new PolicyFixture(repository, policy.toRealPath());
  }

  String[] properties(String... more) {
    String[] base = {"capability.policy-path=" + policy, "capability.repository=" + repository};
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }
}
