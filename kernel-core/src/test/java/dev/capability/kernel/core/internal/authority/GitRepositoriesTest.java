package dev.capability.kernel.core.internal.authority;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The search for the repositories below a work tree, on real repositories made with git. */
class GitRepositoriesTest {
  @TempDir Path temp;
  private Path top;

  @BeforeEach
  void repository() throws IOException {
    top = Git.initWithCommit(temp.resolve("top"));
  }

  private List<GitRepositories.Repository> below(GitRepositories.Bounds bounds) {
    return GitRepositories.below(top.resolve(".git"), top.resolve(".git"), Optional.of(top), bounds);
  }

  private List<GitRepositories.Repository> below() {
    return below(GitRepositories.Bounds.DEFAULT);
  }

  @Test
  void findsNestedRepositoriesAtAnyDepthWorktreesAndAbsorbedSubmodules() throws IOException {
    Path nested = Git.initWithCommit(top.resolve("a/b/c/nested"));
    Path inner = Git.initWithCommit(nested.resolve("inner"));
    git(top, "worktree", "add", "-q", "linked");
    Path source = Git.initWithCommit(temp.resolve("source"));
    git(top, "-c", "protocol.file.allow=always", "submodule", "--quiet", "add", source.toString(), "lib/sub");
    // A submodule whose work tree is gone keeps its git directory under .git/modules.
    git(top, "submodule", "--quiet", "deinit", "-f", "lib/sub");

    List<GitRepositories.Repository> found = below();

    assertThat(found).extracting(GitRepositories.Repository::gitDirectory).containsExactlyInAnyOrder(
        nested.resolve(".git"), inner.resolve(".git"), top.resolve(".git/worktrees/linked"), top.resolve(".git/modules/lib/sub"));
    assertThat(found).filteredOn(r -> r.gitDirectory().equals(nested.resolve(".git")))
        .extracting(GitRepositories.Repository::workTree).containsExactly(Optional.of(nested));
    assertThat(found).filteredOn(r -> r.gitDirectory().equals(top.resolve(".git/modules/lib/sub")))
        .extracting(GitRepositories.Repository::workTree).containsExactly(Optional.empty());
  }

  @Test
  void aCheckedOutSubmoduleIsFoundOnceThroughItsGitFile() throws IOException {
    Path source = Git.initWithCommit(temp.resolve("source"));
    git(top, "-c", "protocol.file.allow=always", "submodule", "--quiet", "add", source.toString(), "sub");

    assertThat(below()).containsExactly(new GitRepositories.Repository(top.resolve(".git/modules/sub"), Optional.of(top.resolve("sub"))));
  }

  @Test
  void aGitDirectoryReachedThroughALinkIsFound() throws IOException {
    Path elsewhere = Git.initWithCommit(temp.resolve("elsewhere"));
    Path linked = Files.createDirectories(top.resolve("linked"));
    Files.createSymbolicLink(linked.resolve(".git"), elsewhere.resolve(".git"));

    assertThat(below()).extracting(GitRepositories.Repository::gitDirectory).containsExactly(elsewhere.resolve(".git"));
  }

  @Test
  void aSearchBeyondItsBoundsFailsRatherThanMissARepository() throws IOException {
    Path deep = top;
    for (int i = 0; i < 5; i++) {
      deep = deep.resolve("d" + i);
    }
    Files.createDirectories(deep);
    for (int i = 0; i < 3; i++) {
      Files.createDirectories(top.resolve("many/r" + i + "/.git"));
    }

    assertThatThrownBy(() -> below(new GitRepositories.Bounds(1000, 4, 100)))
        .isInstanceOfSatisfying(AuthorityException.class, e -> assertThat(e.code()).isEqualTo("GIT_CONFIGURATION_UNREADABLE"))
        .hasMessageContaining("4 levels below");
    assertThatThrownBy(() -> below(new GitRepositories.Bounds(5, 100, 100)))
        .isInstanceOfSatisfying(AuthorityException.class, e -> assertThat(e.code()).isEqualTo("GIT_CONFIGURATION_UNREADABLE"))
        .hasMessageContaining("more than 5 directories");
    assertThatThrownBy(() -> below(new GitRepositories.Bounds(1000, 100, 2)))
        .isInstanceOfSatisfying(AuthorityException.class, e -> assertThat(e.code()).isEqualTo("GIT_CONFIGURATION_UNREADABLE"))
        .hasMessageContaining("more than 2 git repositories");
    assertThat(below(new GitRepositories.Bounds(1000, 100, 3))).hasSize(3);
  }

  @Test
  void aDotGitThatLeadsNowhereFailsClosed() throws IOException {
    Files.createDirectories(top.resolve("broken"));
    Files.writeString(top.resolve("broken/.git"), "not a gitdir file\n");

    assertThatThrownBy(this::below)
        .isInstanceOfSatisfying(AuthorityException.class, e -> assertThat(e.code()).isEqualTo("GIT_DIRECTORY_INVALID"));
  }
}
