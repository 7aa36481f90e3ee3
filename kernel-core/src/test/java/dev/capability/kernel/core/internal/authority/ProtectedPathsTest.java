package dev.capability.kernel.core.internal.authority;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProtectedPathsTest {

  @TempDir Path temp;

  private ProtectedPaths defaults(Path root) {
    return ProtectedPaths.of(root, ExecutionPolicy.DEFAULT_PROTECTED_PATHS);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      ".git", ".git/config", ".git/hooks/pre-commit", ".git/info/attributes", "vendor/lib/.git", "vendor/lib/.git/config",
      ".capability", ".capability/ledger/0001.json", ".mvn", ".mvn/jvm.config", ".mvn/extensions.xml", "module/.mvn/maven.config",
      "mvnw", ".github/workflows", ".github/workflows/ci.yml", ".gitlab-ci.yml", ".envrc", "deep/dir/.envrc", ".gitattributes",
      "src/.gitattributes", ".gitmodules", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", "home/.zshrc",
      ".zshenv", ".zprofile", ".zlogin", ".zlogout"})
  void theDefaultsProtect(String path) {
    assertThat(defaults(temp).protection(path)).as(path).isPresent();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "src/Main.java", ".github/CODEOWNERS", ".github/dependabot.yml", "module/mvnw", ".gitignore", ".git-blame-ignore-revs",
      "x.git/config", "git/config", ".capability.json", "docs/.capability", ".mvnw", "bashrc", ".envrc.example"})
  void theDefaultsLeaveAlone(String path) {
    assertThat(defaults(temp).protection(path)).as(path).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      ".GIT/config", ".Git", "sub/.GiT/hooks/pre-commit", ".g\u200Cit/config", ".git\uFEFF/config", ".\u202Egit/HEAD",
      ".CAPABILITY/ledger", ".GitHub/Workflows/ci.yml", "deep/.ENVRC", ".MVN/jvm.config"})
  void spellingsACaseInsensitiveFileSystemTakesForAProtectedNameAreProtected(String path) {
    assertThat(defaults(temp).protection(path)).as(path).isPresent();
  }

  @Test
  void aGitDirectoryInsideTheRepositoryIsProtectedInEverySpelling() throws IOException {
    Path repository = Files.createDirectories(temp.resolve("repo")).toRealPath();
    git(temp, "init", "-q", "--separate-git-dir=" + repository.resolve("Meta"), repository.toString());

    ProtectedPaths paths = defaults(repository);

    assertThat(paths.protection("META/config")).isPresent();
    assertThat(paths.protection("m\u200Deta/hooks")).isPresent();
    assertThat(paths.heldBelow("")).isPresent();
    assertThat(paths.protection("metadata/x")).isEmpty();
  }

  @Test
  void aProtectionSaysWhichEntryMatchedWhichDirectory() {
    ProtectedPaths.Protection protection = defaults(temp).protection("a/b/.git/hooks/post-checkout").orElseThrow();

    assertThat(protection.entry()).isEqualTo("**/.git");
    assertThat(protection.builtin()).isTrue();
    assertThat(protection.matched()).isEqualTo("a/b/.git");
    assertThat(defaults(temp).protection(".github/workflows/x.yml").orElseThrow().builtin()).isFalse();
  }

  @Test
  void theBuiltInEntriesHoldWhateverThePolicyLists() {
    ProtectedPaths none = ProtectedPaths.of(temp, List.of());

    assertThat(none.protection(".git/config")).isPresent();
    assertThat(none.protection(".capability/x")).isPresent();
    assertThat(none.protection(".envrc")).isEmpty();
  }

  @Test
  void aWorktreeProtectsItsGitFileAndFindsBothGitDirectories() throws IOException {
    Path main = Git.initWithCommit(temp.resolve("main"));
    git(main, "worktree", "add", "-q", temp.resolve("wt").toString());
    Path worktree = temp.resolve("wt").toRealPath();
    assertThat(Files.isRegularFile(worktree.resolve(".git"))).isTrue();

    ProtectedPaths paths = defaults(worktree);

    assertThat(paths.gitDirectories()).containsExactly(main.resolve(".git/worktrees/wt"), main.resolve(".git"));
    assertThat(paths.protection(".git")).isPresent();
    EffectiveAuthority authority = EffectiveAuthority.of(everything(), List.of(), worktree);
    assertThat(authority.writable(".git").code()).isEqualTo("WRITE_PROTECTED");
    assertThat(authority.writable("README").allowed()).isTrue();
  }

  @Test
  void aWorktreeGitDirectoryCannotBeReachedThroughALinkInTheWorktree() throws IOException {
    Path main = Git.initWithCommit(temp.resolve("main"));
    git(main, "worktree", "add", "-q", temp.resolve("wt").toString());
    Path worktree = temp.resolve("wt").toRealPath();
    Files.createSymbolicLink(worktree.resolve("meta"), main.resolve(".git"));

    EffectiveAuthority authority = EffectiveAuthority.of(everything(), List.of(), worktree);

    assertThat(authority.writeTarget(1, worktree, "meta/hooks/pre-commit").code()).isEqualTo("WRITE_THROUGH_LINK");
    assertThat(authority.writeTarget(1, worktree, "meta/config").code()).isEqualTo("WRITE_THROUGH_LINK");
  }

  @Test
  void aSeparateGitDirectoryInsideTheRepositoryIsProtectedUnderItsOwnName() throws IOException {
    Path repository = Files.createDirectories(temp.resolve("repo")).toRealPath();
    git(temp, "init", "-q", "--separate-git-dir=" + repository.resolve("meta[1]"), repository.toString());
    assertThat(Files.readString(repository.resolve(".git"))).startsWith("gitdir: ");

    EffectiveAuthority authority = EffectiveAuthority.of(everything(), List.of(), repository);

    assertThat(authority.protectedPaths().gitDirectories()).containsExactly(repository.resolve("meta[1]"));
    assertThat(authority.writable("meta[1]/config").code()).isEqualTo("WRITE_PROTECTED");
    assertThat(authority.writable("meta[1]/hooks/pre-commit").code()).isEqualTo("WRITE_PROTECTED");
    assertThat(authority.writable("meta[1]").code()).isEqualTo("WRITE_PROTECTED");
    assertThat(authority.writable("meta1/config").allowed()).isTrue();
    assertThat(authority.violations(List.of("meta[1]/HEAD", "src/x"))).extracting(WriteViolation::path).containsExactly("meta[1]/HEAD");
    assertThat(authority.writeTarget(1, repository, "meta[1]").code()).isEqualTo("WRITE_PROTECTED");
  }

  @Test
  void aGitFileThatLeadsNowhereIsRefused() throws IOException {
    Path repository = Files.createDirectories(temp.resolve("repo"));
    Files.writeString(repository.resolve(".git"), "gitdir: missing\n");

    AuthorityException missing = catchThrowableOfType(AuthorityException.class, () -> defaults(repository));
    Files.writeString(repository.resolve(".git"), "not a gitdir file\n");
    AuthorityException malformed = catchThrowableOfType(AuthorityException.class, () -> defaults(repository));

    assertThat(missing.code()).isEqualTo("GIT_DIRECTORY_INVALID");
    assertThat(missing.getMessage()).contains("missing");
    assertThat(malformed.code()).isEqualTo("GIT_DIRECTORY_INVALID");
    assertThat(malformed.getMessage()).contains("gitdir: ");
  }

  @Test
  void aRepositoryWhoseGitDirectoryIsItsRootIsWhollyProtected() throws IOException {
    Path repository = Files.createDirectories(temp.resolve("repo")).toRealPath();
    Files.writeString(repository.resolve(".git"), "gitdir: .\n");

    assertThat(defaults(repository).protection("src/Main.java")).isPresent();
  }

  @Test
  void directoriesAboveProtectedPathsAreKnownWithoutReadingThem() throws IOException {
    ProtectedPaths paths = defaults(temp);

    assertThat(paths.heldBelow(".github")).hasValueSatisfying(p -> assertThat(p.matched()).isEqualTo(".github/workflows"));
    assertThat(paths.heldBelow("")).hasValueSatisfying(p -> assertThat(p.matched()).isEqualTo(".git"));
    assertThat(paths.heldBelow("src")).isEmpty();
  }

  private static ExecutionPolicy everything() {
    return ExecutionPolicy.builder()
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(List.of("**", ".git", ".git/**", "meta[[]1]/**", "meta[[]1]"))
        .executable(ExecutableRule.named("x").exact().build())
        .build();
  }
}
