package dev.capability.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitTest {
  @TempDir Path temp;

  @Test
  void aFailingRunFailsTheTestNamingTheArgumentsAndWhatGitSaid() {
    assertThatThrownBy(() -> Git.git(temp, "rev-parse", "--no-such-option"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("git rev-parse --no-such-option failed (")
        .hasMessageContaining("not a git repository");
  }

  @Test
  void runsWithTheFixedIdentityAndAHomeOfItsOwn() {
    Path repository = Git.init(temp.resolve("repo"));

    assertThat(Git.git(repository, "var", "GIT_AUTHOR_IDENT")).startsWith("test <test@example.invalid>");
    assertThat(Git.run(repository, Map.of(), "config", "--global", "--list").exitCode())
        .as("no global configuration is read")
        .isNotZero();
  }

  @Test
  void passesStandardInputAndKeepsTheStreamsApart() {
    Git.Result result =
        Git.exec(temp, Git.environment(), List.of("git", "hash-object", "--stdin"), "hello\n");

    assertThat(result.exitCode()).isZero();
    assertThat(result.stdout()).isEqualTo("ce013625030ba8dba906f756967f9e9ca394464a\n");
    assertThat(result.stderr()).isEmpty();
  }

  @Test
  void outputBeyondTheBoundFailsTheTestInsteadOfBeingRead() {
    List<String> argv = List.of("head", "-c", Long.toString(Git.MAX_OUTPUT_BYTES + 1), "/dev/zero");

    assertThatThrownBy(() -> Git.exec(temp, Git.environment(), argv))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("more than the " + Git.MAX_OUTPUT_BYTES);
  }

  @Test
  void writeTreeOfAPlainDirectoryIsTheTreeOfItsRepositoryAndWritesNothingThere() throws IOException {
    Path directory = Files.createDirectories(temp.resolve("plain"));
    Files.writeString(directory.resolve("a"), "x\n");

    String plain = Git.writeTree(directory, temp.resolve("scratch-1")).tree();
    assertThat(directory.resolve(".git")).doesNotExist();
    Git.init(directory);
    Git.git(directory, "add", "a");
    Git.git(directory, "commit", "-q", "-m", "a");

    assertThat(Git.writeTree(directory, temp.resolve("scratch-2")).tree()).isEqualTo(plain);
    assertThat(Git.git(directory, "rev-parse", "HEAD^{tree}").strip()).isEqualTo(plain);
  }

  @Test
  void initWithCommitMakesOneCommitOnMain() throws IOException {
    Path repository = Git.initWithCommit(temp.resolve("one"));

    assertThat(Git.git(repository, "rev-list", "--count", "main").strip()).isEqualTo("1");
    assertThat(Git.git(repository, "status", "--porcelain")).isEmpty();
  }
}
