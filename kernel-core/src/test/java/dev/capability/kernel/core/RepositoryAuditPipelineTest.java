package dev.capability.kernel.core;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.testing.Git;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Layers, audit, tree hash and secret scan through the whole kernel, on a real Git repository
 * made by the test with the git CLI.
 */
class RepositoryAuditPipelineTest {
  /** An AWS-style access key id, assembled so this source file holds no literal secret. */
  private static final String PLANTED_KEY = "AKIA" + "Q3EGRQWZ7EXAMPLE".replace("EXAMPLE", "LM4NP2X");

  @TempDir Path tmp;
  private Path repo;
  private Path writer;

  @BeforeEach
  void repository() throws Exception {
    repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Files.createDirectories(repo.resolve("src"));
    Files.writeString(repo.resolve("src/Main.java"), "class Main {}\n");
    Files.writeString(repo.resolve("README.md"), "# demo\n");
    Files.writeString(repo.resolve("old.txt"), "to be deleted\n");
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "init");
    // The command: writes src/Gen.java and notes.txt, deletes old.txt, prints a planted key.
    writer = TestFiles.script(tmp.resolve("bin"), "writer",
        "echo 'class Gen {}' > src/Gen.java\necho note > notes.txt\nrm old.txt\necho \"key=" + PLANTED_KEY + "\"");
  }

  private CommandKernel kernel(ExecutionPolicy.Builder policy) {
    return CommandKernel.builder(ExecutionPolicies.of(policy.build())).hostEnvironment(Map.of()).build();
  }

  private ExecutionPolicy.Builder scopedPolicy(String... scopes) {
    return ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(List.of(scopes))
        .executable(ExecutableRule.atPath("writer", writer).exact().build());
  }

  @Test
  void theAttestationRecordsWhatChangedTheTreeBeforeAndViolationsOutsideScope() throws Exception {
    String expectedTree = Git.writeTree(repo, tmp.resolve("scratch")).tree();
    try (CommandKernel kernel = kernel(scopedPolicy("src/**"))) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(writer.toString()).repository(repo).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      Attestation a = result.attestation();
      assertThat(a.inputTreeHash()).isEqualTo(expectedTree);
      assertThat(a.filesProduced()).containsExactlyInAnyOrder("src/Gen.java", "notes.txt");
      assertThat(a.changes()).extracting(c -> c.path() + ":" + c.kind())
          .contains("src/Gen.java:CREATED", "notes.txt:CREATED", "old.txt:DELETED");
      assertThat(a.violations()).extracting(Attestation.Violation::path)
          .containsExactlyInAnyOrder("notes.txt", "old.txt");
      assertThat(a.violations()).allSatisfy(v -> assertThat(v.layer()).isEqualTo("operator"));
      assertThat(a.writeBoundaries().operator()).containsExactly("src/**");
    }
  }

  @Test
  void aSecretPrintedByTheCommandIsReportedByRuleAndNeverStored() {
    try (CommandKernel kernel = kernel(scopedPolicy("**"))) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(writer.toString()).repository(repo).build());

      assertThat(result.attestation().secrets().findings())
          .anySatisfy(f -> assertThat(f.source()).isEqualTo("stdout"));
      assertThat(AttestationJson.toMap(result.attestation()).toString()).doesNotContain(PLANTED_KEY);
    }
  }

  @Test
  void aPhaseNarrowsTheOperatorsScopeAndTheViolationNamesThePhase() {
    AuthorityLayer phase = AuthorityLayer.builder(AuthorityLayer.Kind.PHASE, "test-phase")
        .writeScopes(List.of("src/test/**"))
        .build();
    try (CommandKernel kernel = kernel(scopedPolicy("**"))) {
      ExecutionResult result = kernel.execute(
          ExecutionRequest.argv(writer.toString()).repository(repo).layer(phase).build());

      assertThat(result.attestation().violations())
          .filteredOn(v -> v.path().equals("src/Gen.java"))
          .singleElement()
          .satisfies(v -> assertThat(v.layer()).isEqualTo("phase"));
      assertThat(result.attestation().writeBoundaries().phase()).containsExactly("src/test/**");
    }
  }

  @Test
  void aLayerThatWouldWidenTheOperatorIsRefusedBeforeLaunch() {
    AuthorityLayer widening = AuthorityLayer.builder(AuthorityLayer.Kind.PROJECT_CONTRACT, "test-contract")
        .writeScopes(List.of("**"))
        .build();
    try (CommandKernel kernel = kernel(scopedPolicy("src/**"))) {
      assertThatThrownBy(() -> kernel.execute(
              ExecutionRequest.argv(writer.toString()).repository(repo).layer(widening).build()))
          .isInstanceOf(CapabilityException.class)
          .extracting(e -> ((CapabilityException) e).code())
          .isEqualTo("LAYER_WIDENS_OPERATOR");
      assertThat(repo.resolve("src/Gen.java")).doesNotExist();
    }
  }

  @Test
  void aLayerThatDropsTheExecutableDeniesItNamingTheLayer() {
    AuthorityLayer phase = AuthorityLayer.builder(AuthorityLayer.Kind.PHASE, "test-phase")
        .executables(java.util.Set.of())
        .build();
    try (CommandKernel kernel = kernel(scopedPolicy("**"))) {
      ExecutionResult result = kernel.execute(
          ExecutionRequest.argv(writer.toString()).repository(repo).layer(phase).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
      assertThat(result.decision().layer()).isEqualTo("phase");
      assertThat(repo.resolve("src/Gen.java")).doesNotExist();
    }
  }

  @Test
  void aMissingScopeRootIsCreatedBeforeLaunchSoAFreshCloneBuildsAndTheAttestationSaysSo() throws Exception {
    Path builder = TestFiles.script(tmp.resolve("bin"), "builder", "echo built > target/classes/x");
    ExecutionPolicy.Builder policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(List.of("target/classes/**"))
        .executable(ExecutableRule.atPath("builder", builder).exact().build());
    try (CommandKernel kernel = kernel(policy)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(builder.toString()).repository(repo).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
      assertThat(repo.resolve("target/classes/x")).hasContent("built");
      assertThat(result.attestation().createdScopeRoots()).containsExactly("target", "target/classes");
      assertThat(result.attestation().violations()).isEmpty();
      assertThat(result.attestation().filesProduced()).containsExactly("target/classes/x");
    }
  }

  @Test
  void aScopeRootThatIsASymbolicLinkOutOfTheRepositoryIsRefusedAndNotFollowed() throws Exception {
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    Path builder = TestFiles.script(tmp.resolve("bin"), "builder", "mkdir -p target/b && echo built > target/b/x");
    Files.createSymbolicLink(repo.resolve("target"), elsewhere);
    for (String scope : List.of("target/**", "target/b/**")) {
      ExecutionPolicy.Builder policy = ExecutionPolicy.builder()
          .network(NetworkMode.HOST)
          .projectWrites(ProjectWriteMode.SCOPED)
          .writeScopes(List.of(scope))
          .executable(ExecutableRule.atPath("builder", builder).exact().build());
      try (CommandKernel kernel = kernel(policy)) {
        assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(builder.toString()).repository(repo).build()))
            .as(scope)
            .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo("SCOPE_THROUGH_SYMLINK"));
      }
      assertThat(elsewhere).as(scope).isEmptyDirectory();
    }
  }

  @Test
  void writesIntoTheGitDirectoryAreViolationsWhateverTheScope() throws Exception {
    Path hooker = TestFiles.script(tmp.resolve("bin"), "hooker", "echo evil > .git/hooks/pre-commit");
    ExecutionPolicy.Builder policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(List.of("**"))
        .executable(ExecutableRule.atPath("hooker", hooker).exact().build());
    try (CommandKernel kernel = kernel(policy)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(hooker.toString()).repository(repo).build());

      assertThat(result.attestation().violations()).extracting(Attestation.Violation::path)
          .contains(".git/hooks/pre-commit");
    }
  }

  @Test
  void gitRunsWithRepositoryHelpersNeutralizedAndTheAttestationSaysSo() throws Exception {
    Path marker = tmp.resolve("fsmonitor-ran");
    Path helper = TestFiles.script(tmp.resolve("helpers"), "monitor", "touch " + marker);
    git(repo, "config", "core.fsmonitor", helper.toString());
    Path gitPath = Path.of("/usr/bin/git").toRealPath();
    ExecutionPolicy.Builder policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .executable(ExecutableRule.atPath("git", gitPath).exact("status", "--short").build());
    try (CommandKernel kernel = kernel(policy)) {
      ExecutionResult result = kernel.execute(
          ExecutionRequest.argv(gitPath.toString(), "status", "--short").repository(repo).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(result.attestation().neutralization()).anySatisfy(s -> assertThat(s).startsWith("core.fsmonitor"));
      assertThat(marker).as("the planted fsmonitor helper must not run").doesNotExist();
    }
  }
}
