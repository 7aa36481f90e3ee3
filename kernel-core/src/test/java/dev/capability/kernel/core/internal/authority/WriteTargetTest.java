package dev.capability.kernel.core.internal.authority;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Write operands are decided before launch, against the scopes and against the file system as it is. */
class WriteTargetTest {

  private static final ExecutionPolicy POLICY = ExecutionPolicy.builder()
      .projectWrites(ProjectWriteMode.SCOPED)
      .writeScopes(List.of("**", ".github/**"))
      .executable(ExecutableRule.named("fmt").exact().build())
      .build();

  @TempDir Path temp;
  private Path repository;
  private EffectiveAuthority authority;

  @BeforeEach
  void repository() throws IOException {
    repository = Files.createDirectories(temp.resolve("repo")).toRealPath();
    Files.createDirectories(repository.resolve(".git"));
    Files.createDirectories(repository.resolve("src/main"));
    Files.writeString(repository.resolve("src/main/A.java"), "class A {}");
    authority = EffectiveAuthority.of(POLICY, List.of(), repository);
  }

  @Test
  void aPlainFileInsideTheScopeIsWritable() {
    Decision decision = authority.writeTarget(2, repository, "src/main/A.java");

    assertThat(decision.allowed()).as(decision.message()).isTrue();
    assertThat(authority.writeTarget(2, repository, "src/main/New.java").allowed()).isTrue();
    assertThat(authority.writeTarget(2, repository, "./src//main/A.java").allowed()).isTrue();
  }

  @Test
  void operandsAreRelativeToTheWorkingDirectory() {
    Path main = repository.resolve("src/main");
    AuthorityLayer phase = AuthorityLayer.builder(Kind.PHASE, "phase.json").writeScopes(List.of("src/main/**")).build();
    EffectiveAuthority narrow = EffectiveAuthority.of(POLICY, List.of(phase), repository);

    assertThat(narrow.writeTarget(1, main, "A.java").allowed()).isTrue();
    assertDenied(narrow.writeTarget(1, repository, "A.java"), "WRITE_OUTSIDE_SCOPE", 1);
  }

  @Test
  void aTargetThroughASymbolicLinkIsRefused(@TempDir Path elsewhere) throws IOException {
    Files.createSymbolicLink(repository.resolve("src/out"), elsewhere);
    Files.createSymbolicLink(repository.resolve("src/main/B.java"), elsewhere.resolve("B.java"));
    Files.createSymbolicLink(repository.resolve("src/git"), repository.resolve(".git"));

    assertDenied(authority.writeTarget(3, repository, "src/out/x.txt"), "WRITE_THROUGH_LINK", 3);
    assertDenied(authority.writeTarget(3, repository, "src/main/B.java"), "WRITE_THROUGH_LINK", 3);
    assertDenied(authority.writeTarget(3, repository, "src/git/config"), "WRITE_THROUGH_LINK", 3);
    assertThat(authority.writeTarget(3, repository, "src/git/config").message()).contains("\"src/git\"");
  }

  @Test
  void aFileWithAnotherHardLinkIsRefused() throws IOException {
    Files.writeString(repository.resolve(".git/config"), "[core]\n");
    Files.createLink(repository.resolve("src/config"), repository.resolve(".git/config"));

    assertDenied(authority.writeTarget(1, repository, "src/config"), "WRITE_THROUGH_LINK", 1);
  }

  @Test
  void aDirectoryThatHoldsAProtectedPathIsRefused() throws IOException {
    Files.createDirectories(repository.resolve(".github/workflows"));

    assertDenied(authority.writeTarget(1, repository, ".github"), "WRITE_PROTECTED", 1);
    assertDenied(authority.writeTarget(1, repository, "."), "WRITE_PROTECTED", 1);
    assertThat(authority.writeTarget(1, repository, ".github/CODEOWNERS").allowed()).isTrue();
    // Protected names that may lie anywhere below (**/.envrc) are not searched for; the audit flags them.
    assertThat(authority.writeTarget(1, repository.resolve("src"), ".").allowed()).isTrue();
  }

  @Test
  void aProtectedTargetIsRefusedWhateverTheScope() {
    assertDenied(authority.writeTarget(1, repository, ".git/hooks/pre-commit"), "WRITE_PROTECTED", 1);
    assertDenied(authority.writeTarget(1, repository, ".github/workflows/ci.yml"), "WRITE_PROTECTED", 1);
    assertDenied(authority.writeTarget(1, repository.resolve("src"), ".envrc"), "WRITE_PROTECTED", 1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"../outside", "src/../../x", "/etc/passwd", "~/.bashrc", "", "a\u0000b"})
  void operandsThatLeaveTheRepositoryAreRefused(String operand) {
    assertDenied(authority.writeTarget(4, repository, operand), "PATH_INVALID", 4);
  }

  @Test
  void aWorkingDirectoryOutsideTheRepositoryIsRefused() {
    assertDenied(authority.writeTarget(1, temp, "repo/src/x"), "PATH_INVALID", 1);
  }

  @Test
  void authorizeChecksTheRuleInEveryLayerThenEveryTarget() {
    AuthorityLayer phase = AuthorityLayer.builder(Kind.PHASE, "phase.json").executables("fmt").writeScopes(List.of("src/**")).build();
    EffectiveAuthority narrow = EffectiveAuthority.of(POLICY, List.of(phase), repository);

    assertThat(narrow.authorize("fmt", List.of(new WriteTarget(1, "src/a"), new WriteTarget(2, "src/b")), repository).allowed()).isTrue();
    assertDenied(narrow.authorize("fmt", List.of(new WriteTarget(1, "src/a"), new WriteTarget(2, "docs/b")), repository),
        "WRITE_OUTSIDE_SCOPE", 2);
    Decision other = narrow.authorize("other", List.of(), repository);
    assertThat(other.code()).isEqualTo("EXECUTABLE_NOT_ALLOWED");
  }

  private static void assertDenied(Decision decision, String code, int argIndex) {
    assertThat(decision.allowed()).as(decision.message()).isFalse();
    assertThat(decision.code()).as(decision.message()).isEqualTo(code);
    assertThat(decision.argIndex()).hasValue(argIndex);
  }
}
