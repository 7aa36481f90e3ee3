package dev.capability.integrations.springai;

import dev.capability.capability.runtime.TestPackages;
import dev.capability.testing.Git;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

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

  /** A capability that declares no effect (so even the deny-all effect policy lets it run) and echoes its input. */
  static final String CAPABILITY_ENTRY = "com.example.Echo";
  private static final String CAPABILITY_SOURCE = """
      package com.example;
      public final class Echo implements dev.capability.capability.api.Capability {
        @Override
        public String execute(String in, dev.capability.capability.api.CapabilityContext context) {
          return "{\\"received\\":" + in + "}";
        }
        @Override
        public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
      }
      """;

  /** The effect policy: grants the reflection the reflecting package declares. */
  static final String EFFECT_POLICY = "{\"version\": 1, \"grants\": [{\"effect\": \"code.dynamic\", \"scope\": \"reflection\"}]}";

  final Path repository;
  final Path policy;
  final Path capability;
  final Path reflecting;
  final Path effectPolicy;

  private PolicyFixture(Path repository, Path policy, Path capability, Path reflecting, Path effectPolicy) {
    this.repository = repository;
    this.policy = policy;
    this.capability = capability;
    this.reflecting = reflecting;
    this.effectPolicy = effectPolicy;
  }

  /**
   * A git repository holding one untracked {@code hello.txt}, the policy, and the packages of the
   * echo capability (no effect, and declaring reflection) and an effect policy granting
   * reflection, under {@code temp}.
   * {@code temp} is opened to everyone for reading, since the sandbox may run as another user.
   */
  static PolicyFixture create(Path temp) throws Exception {
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path repository = Git.init(Files.createDirectory(temp.resolve("repository"))).toRealPath();
    Files.writeString(repository.resolve("hello.txt"), "hello\n");
    Path policyDirectory = Files.createDirectory(temp.resolve("policy"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path policy = policyDirectory.resolve("policy.json");
    Files.writeString(policy, POLICY, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
    byte[] jar = TestPackages.jar(Files.createDirectory(temp.resolve("work")), Map.of(CAPABILITY_ENTRY, CAPABILITY_SOURCE), null, Map.of());
    Path capability = TestPackages.directory(temp.resolve("echo"), jar, CAPABILITY_ENTRY, "{}");
    // The same code declaring reflection: an effect that needs an approval.
    Path reflecting = TestPackages.directory(temp.resolve("reflecting"), jar, CAPABILITY_ENTRY, "{\"code.dynamic\": [\"reflection\"]}");
    Path effectPolicy = policyDirectory.resolve("effects.json");
    Files.writeString(effectPolicy, EFFECT_POLICY, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(effectPolicy, PosixFilePermissions.fromString("rw-------"));
    return new PolicyFixture(repository, policy.toRealPath(), capability, reflecting, effectPolicy.toRealPath());
  }

  /** The properties of the repository and the policy, and {@code more}. */
  String[] properties(String... more) {
    String[] base = {"capability.policy-path=" + policy, "capability.repository=" + repository};
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }
}
