package dev.capability.kernel.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each name is tried on the real {@code git add}: the rules refuse exactly what Git refuses. */
class GitPathRulesTest {
  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {
      ".GIT", ".Git", "git~1", "GIT~1", ".git.", ".git ", ".git. .", ".git::$INDEX_ALLOCATION", "a\\.git",
      "git~1\\x", ".gitmodules", ".gitignore", "git~2", ".gitx", "gitmod~1", ".git-foo", "x.git", "normal"})
  void regularFileNamesAgreeWithGit(String name) throws IOException {
    Path repo = Git.init(temp.resolve("repo"));
    Files.writeString(repo.resolve(name), "content");
    assertAgreesWithGit(repo, name, false);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      ".gitmodules", ".GITMODULES", ".gitmodules.", ".gitmodules ", "gitmod~1", "GITMOD~4", "gitmod~5", "gi7eba~1",
      "gi7eba~9", "gi7eb~1", ".gitattributes", ".gitignore", "normal"})
  void symbolicLinkNamesAgreeWithGit(String name) throws IOException {
    Path repo = Git.init(temp.resolve("repo"));
    Files.createSymbolicLink(repo.resolve(name), Path.of("target"));
    assertAgreesWithGit(repo, name, true);
  }

  private static void assertAgreesWithGit(Path repo, String name, boolean symlink) {
    Git.Result add = Git.run(repo, Map.of(), "add", "--", name);
    boolean gitRefuses = add.exitCode() != 0;
    assertThat(GitPathRules.refusal(name, symlink).isPresent())
        .as("refusal of %s (git says: %s)", name, add.stderr().strip())
        .isEqualTo(gitRefuses);
  }

  @ParameterizedTest
  @ValueSource(strings = {".", "..", ""})
  void refusesDotComponents(String name) {
    assertThat(GitPathRules.refusal(name, false)).isPresent();
  }
}
