package dev.capability.kernel.core.internal.audit;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.FileMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GitIndexTest {
  @TempDir Path temp;

  private Path repoWithFiles() throws IOException {
    Path repo = Git.init(temp.resolve("repo"));
    for (String path : List.of("a", "dir/b", "dir/bb", "dir/sub/c", "longer-name/" + "x".repeat(200), "ünï/名")) {
      Files.createDirectories(repo.resolve(path).getParent());
      Files.writeString(repo.resolve(path), path);
    }
    Files.createSymbolicLink(repo.resolve("link"), Path.of("a"));
    git(repo, "add", "-A");
    return repo;
  }

  @ParameterizedTest
  @ValueSource(strings = {"2", "3", "4"})
  void readsEveryEntryAsGitListsIt(String version) throws IOException {
    Path repo = repoWithFiles();
    git(repo, "update-index", "--index-version", version);
    git(repo, "update-index", "--skip-worktree", "dir/b");
    GitIndex index = GitIndex.read(repo.resolve(".git/index"));
    String listed = git(repo, "-c", "core.quotePath=false", "ls-files", "-s", "-z");
    for (String line : listed.split("\0")) {
      String[] fields = line.split("[ \t]", 4);
      GitIndex.Entry entry = index.entry(fields[3]).orElseThrow();
      assertThat(Integer.toOctalString(entry.mode().getBits())).isEqualTo(fields[0].replaceFirst("^0+", ""));
      assertThat(entry.id().name()).isEqualTo(fields[1]);
      assertThat(entry.skipWorktree()).isEqualTo(fields[3].equals("dir/b"));
    }
    assertThat(index.tracks("dir/sub/c")).isTrue();
    assertThat(index.tracks("dir/sub")).isFalse();
    assertThat(index.tracksBelow("dir")).isTrue();
    assertThat(index.tracksBelow("dir/sub")).isTrue();
    assertThat(index.tracksBelow("a")).isFalse();
    assertThat(index.entry("link").orElseThrow().mode()).isEqualTo(FileMode.SYMLINK);
  }

  @Test
  void aMissingIndexIsEmpty() throws IOException {
    GitIndex index = GitIndex.read(temp.resolve("no-index"));
    assertThat(index.tracks("a")).isFalse();
    assertThat(index.skipWorktreeEntries()).isEmpty();
  }

  @Test
  void refusesATruncatedIndex() throws IOException {
    Path repo = repoWithFiles();
    Path index = repo.resolve(".git/index");
    byte[] bytes = Files.readAllBytes(index);
    Files.write(index, java.util.Arrays.copyOf(bytes, 40));
    assertThatThrownBy(() -> GitIndex.read(index))
        .isInstanceOf(AuditException.class)
        .extracting(e -> ((AuditException) e).code())
        .isEqualTo(AuditException.SNAPSHOT_FAILED);
  }

  @Test
  void refusesASparseIndex() throws IOException {
    Path repo = repoWithFiles();
    git(repo, "commit", "-q", "-m", "files");
    git(repo, "sparse-checkout", "init", "--cone", "--sparse-index");
    git(repo, "sparse-checkout", "set", "dir");
    assertThatThrownBy(() -> GitIndex.read(repo.resolve(".git/index")))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("'sdir'");
  }
}
