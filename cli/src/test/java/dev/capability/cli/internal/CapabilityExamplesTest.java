package dev.capability.cli.internal;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example packages of examples/capabilities, run through the CLI in the Bubblewrap sandbox
 * under each kind of policy, with their plans, approvals and receipts recorded in a real ledger.
 */
class CapabilityExamplesTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String EXAMPLES = "../examples/capabilities/";
  @TempDir Path repo;

  @BeforeEach
  void sandboxCanReachTheRepository() throws IOException {
    BWRAP.backend();
    // As root the sandbox runs as nobody: it must be able to enter the repository and write notes/.
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createDirectories(repo.resolve("notes"));
    Files.setPosixFilePermissions(repo.resolve("notes"), PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.createDirectories(repo.resolve("examples/data"));
    Files.writeString(repo.resolve("examples/data/a.txt"), "one two two\nthree three three\n");
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  private CliRunner.Outcome run(String example, String... more) {
    String[] args = new String[more.length + 4];
    args[0] = "run";
    args[1] = EXAMPLES + example;
    args[2] = "--repo";
    args[3] = repo.toString();
    System.arraycopy(more, 0, args, 4, more.length);
    return CliRunner.run(args);
  }

  private CliRunner.Outcome ledger(String... more) {
    String[] args = new String[more.length + 3];
    System.arraycopy(more, 0, args, 1, more.length);
    args[0] = "ledger";
    args[more.length + 1] = "--repo";
    args[more.length + 2] = repo.toString();
    return CliRunner.run(args);
  }

  @Test
  void notesIsRefusedUnderDenyAllAndTheRefusalIsRecorded() {
    CliRunner.Outcome outcome = run("notes", "--input", "{\"title\":\"a\",\"text\":\"hi\"}", "--json");

    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.out()).contains("\"status\":\"REFUSED\"").contains("\"code\":\"POLICY_DENIED\"");
    assertThat(repo.resolve("notes/a.md")).doesNotExist();
    CliRunner.Outcome list = ledger("list");
    assertThat(list.out()).contains("receipt  REFUSED").contains("plan ");
  }

  @Test
  void notesWritesUnderPermissiveWithAnApprovalAndTheLedgerVerifies() throws IOException {
    CliRunner.Outcome outcome =
        run("notes", "--input", "{\"title\":\"first\",\"text\":\"hello notes\"}", "--policy", "permissive",
            "--approve", "filesystem.write=notes", "--json");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    assertThat(repo.resolve("notes/first.md")).hasContent("hello notes");
    assertThat(outcome.out())
        .contains("\"boundaryApplied\":true")
        .contains("\"usedEffects\":[{\"kind\":\"filesystem.write\",\"scope\":\"notes\"}]");
    assertThat(ledger("list").out()).contains("receipt  SUCCEEDED").contains("approval  APPROVED");
    CliRunner.Outcome verify = ledger("verify");
    assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
    // Plan, approval, the kernel's launch, and the receipt that names it.
    assertThat(verify.out()).contains("INTACT: 4 records");
  }

  @Test
  void withoutTheApprovalPermissiveRefusesAndNothingIsWritten() {
    CliRunner.Outcome outcome =
        run("notes", "--input", "{\"title\":\"b\",\"text\":\"x\"}", "--policy", "permissive", "--approve", "filesystem.write=other");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.out()).contains("APPROVAL_REFUSED");
    assertThat(repo.resolve("notes/b.md")).doesNotExist();
    assertThat(ledger("list").out()).contains("approval  REFUSED");
  }

  @Test
  void anUnverifiedNoteIsRolledBackInsideTheSandbox() {
    CliRunner.Outcome outcome =
        run("notes", "--input", "{\"title\":\"doomed\",\"text\":\"x\",\"failVerify\":true}", "--policy", "permissive",
            "--approve", "filesystem.write=notes");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isEqualTo(ExitCodes.CAPABILITY_FAILED);
    assertThat(outcome.out()).contains("hooks: execute SUCCEEDED, verify FAILED (verify answered false), rollback ROLLED_BACK");
    assertThat(repo.resolve("notes/doomed.md")).doesNotExist();
  }

  @Test
  void wordCountRunsUnderAPolicyFileThatGrantsItsRead() throws IOException {
    Path policy = repo.resolve("policy.json");
    Files.writeString(
        policy,
        "{\"version\":1,\"capabilities\":[\"word-count@1.0.0\"],\"grants\":[{\"effect\":\"filesystem.read\",\"scope\":\"examples/data\"}]}");
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));

    CliRunner.Outcome outcome = run("word-count", "--input", "{\"top\":1}", "--policy", policy.toString(), "--json");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    assertThat(outcome.out()).contains("\\\"words\\\":6").contains("\\\"word\\\":\\\"three\\\",\\\"count\\\":3");
  }

  @Test
  void aPolicyFileThatDoesNotGrantTheReadRefusesWordCount() throws IOException {
    Path policy = repo.resolve("policy.json");
    Files.writeString(policy, "{\"version\":1,\"grants\":[{\"effect\":\"filesystem.read\",\"scope\":\"elsewhere\"}]}");
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));

    CliRunner.Outcome outcome = run("word-count", "--input", "{\"top\":1}", "--policy", policy.toString());

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.out()).contains("POLICY_DENIED").contains("does not grant [filesystem.read(examples/data)]");
  }

  @Test
  void runsInALinkedGitWorktreeWhoseGitDirectoryLivesElsewhere() throws Exception {
    Path main = Files.createDirectories(repo.resolve("main"));
    git(main, "init", "-q");
    Files.writeString(main.resolve("README"), "x\n");
    git(main, "add", "README");
    git(main, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "one");
    Path worktree = repo.resolve("wt");
    git(main, "worktree", "add", "-q", worktree.toString());
    Files.setPosixFilePermissions(worktree, PosixFilePermissions.fromString("rwxr-xr-x"));

    CliRunner.Outcome outcome =
        CliRunner.run("run", EXAMPLES + "hello", "--repo", worktree.toString(), "--input", "{\"name\":\"Ada\"}", "--json");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    assertThat(outcome.out()).contains("Hello, Ada!");
  }

  @Test
  void phoneHomeIsRefusedAtInspectionNamingClassMemberAndEffect() {
    CliRunner.Outcome outcome = CliRunner.run("inspect", EXAMPLES + "phone-home");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.err())
        .contains("EFFECT_UNDECLARED")
        .contains("com/example/phonehome/PhoneHome -> java/net/Socket.connect (network.connect)");
  }

  @Test
  void redactedReceiptsKeepTheirSecretsOutOfTheLedger() {
    CliRunner.Outcome outcome =
        run("notes", "--input", "{\"title\":\"s\",\"text\":\"hunter2\"}", "--policy", "permissive",
            "--approve", "filesystem.write=notes", "--redact");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    // Plan, approval, the kernel's launch (its attestation holds the input's digest only), receipt.
    assertThat(ledger("show", "3", "--json").out()).contains("\"kind\":\"execution\"").doesNotContain("hunter2");
    CliRunner.Outcome receipt = ledger("show", "4", "--json");
    assertThat(receipt.exitCode()).as(receipt.err()).isZero();
    assertThat(receipt.out()).contains("\"redacted\":true").contains("sha256:").doesNotContain("hunter2");
    assertThat(ledger("verify").exitCode()).isZero();
  }
}
