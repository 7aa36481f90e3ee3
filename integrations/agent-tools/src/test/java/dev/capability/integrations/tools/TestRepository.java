package dev.capability.integrations.tools;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.ledger.DeferredLedger;
import dev.capability.ledger.LedgerOptions;
import dev.capability.testing.Git;
import dev.capability.testing.Ownership;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

/**
 * A real repository for the agent tools' tests and the integrations' tests: a git repository with
 * {@code a.txt} and {@code README.md} committed, the operator's policy in a private directory beside it (as an
 * operator installs it: owned by the user, mode 0600), the repository's SQLite ledger, opened with
 * its first record, and a kernel that runs under bwrap (skipped or failed by {@code
 * CAPABILITY_REQUIRE_BACKENDS} when bwrap is missing).
 */
public final class TestRepository {
  /**
   * The operator's policy: {@code cat} of any path and {@code echo} of anything, no network,
   * writes outside {@code docs/}; {@code rm}, {@code sh} and everything else are refused by the operator layer.
   */
  public static final String POLICY = """
      {"version": 1, "timeoutMillis": 60000, "maxOutputBytes": 1048576, "network": "none", "projectWrites": "scoped", "writeScopes": ["docs/**"],
       "environment": {"inherit": ["PATH"]},
       "executables": {
         "cat": {"name": "cat", "arguments": {"operands": {"kind": "path", "minCount": 1}, "doubleDash": "optional"}},
         "echo": {"name": "echo", "arguments": {"operands": {"kind": "string"}}}}}
      """;

  /** Writes the ledger only when a record comes, and never on a timer while a command runs. */
  private static final LedgerOptions LEDGER = LedgerOptions.builder().checkpointMaxDelay(null).build();

  public final Path repository;
  public final Path policyFile;
  public final DeferredLedger ledger;

  private TestRepository(Path repository, Path policyFile) {
    this.repository = repository;
    this.policyFile = policyFile;
    this.ledger = new DeferredLedger(repository, LEDGER);
  }

  /** Creates the repository and {@link #POLICY} under {@code base}. */
  public static TestRepository create(Path base) throws IOException {
    return create(base, POLICY);
  }

  /** Creates the repository and the operator policy {@code policy} under {@code base}. */
  public static TestRepository create(Path base, String policy) throws IOException {
    // The sandbox runs as another uid when the tests run as root: it must be able to reach the repository.
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path repository = Files.createDirectories(base.resolve("repo"));
    Git.init(repository);
    Files.writeString(repository.resolve("a.txt"), "alpha\n");
    Files.writeString(repository.resolve("README.md"), "# readme\n");
    Files.writeString(repository.resolve(".gitignore"), ".capability/\n");
    Git.git(repository, "add", "a.txt", "README.md", ".gitignore");
    Git.git(repository, "commit", "-q", "-m", "first");
    Ownership.readableByEveryone(repository);
    // The write scope: the sandbox's uid (another one when the tests run as root) must be able to write it.
    Files.setAttribute(Files.createDirectory(repository.resolve("docs")), "unix:mode", 01777);
    Path policyDirectory = Files.createDirectory(base.resolve("policy"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path policyFile = policyDirectory.resolve("policy.json");
    Files.writeString(policyFile, policy, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(policyFile, PosixFilePermissions.fromString("rw-------"));
    return new TestRepository(repository.toRealPath(), policyFile);
  }

  /** A gate for bwrap that a test class opens once and closes after its tests. */
  public static BackendGate bwrap() {
    return BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  }

  /**
   * The host's kernel: the policy loaded for the repository, bwrap only, recording every run and
   * decision in the ledger. Not closed by the tests: closing it would close the gate's backend.
   */
  public CommandKernel kernel(BackendGate bwrap) {
    return CommandKernel.builder(ExecutionPolicies.load(policyFile, repository))
        .discoverBackends(false)
        .backend(bwrap.backend())
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .evidenceStore(ledger)
        .decisionStore(ledger)
        .build();
  }

  /** As {@link #kernel}, recording nothing itself: the work plans record their own launches in the ledger. */
  public CommandKernel planKernel(BackendGate bwrap) {
    return CommandKernel.builder(ExecutionPolicies.load(policyFile, repository))
        .discoverBackends(false)
        .backend(bwrap.backend())
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .build();
  }

  /** The ledger's file, once a record opened it: empty while nothing was recorded. */
  public Optional<Path> ledgerFile() {
    return ledger.databaseFile();
  }
}
