package dev.capability.kernel.core.internal.audit;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkingTreeHashTest {
  private static final String EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

  @TempDir Path temp;

  private Path repo() {
    return Git.init(temp.resolve("repo"));
  }

  private void assertMatchesGit(Path repo) {
    String expected = Git.writeTree(repo, scratch()).tree();
    assertThat(WorkingTreeHash.of(repo)).isEqualTo(expected);
  }

  private Path scratch() {
    try {
      return Files.createTempDirectory(temp, "scratch");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path write(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  @Test
  void emptyRepositoryHashesToTheEmptyTree() {
    Path repo = repo();
    assertThat(WorkingTreeHash.of(repo)).isEqualTo(EMPTY_TREE);
    assertMatchesGit(repo);
  }

  @Test
  void nestedDirectoriesSpacesAndUnicodeNames() throws IOException {
    Path repo = repo();
    write(repo.resolve("top.txt"), "top\n");
    write(repo.resolve("a/b/c/deep.txt"), "deep\n");
    write(repo.resolve("with space/file name.txt"), "spaces\n");
    write(repo.resolve("ünïcödé/名前.txt"), "unicode\n");
    write(repo.resolve("emoji-\uD83D\uDE00.md"), "emoji\n");
    assertMatchesGit(repo);
  }

  @Test
  void ordersTreesAsIfTheirNamesEndedInSlash() throws IOException {
    Path repo = repo();
    // '-' (0x2d) and '.' (0x2e) sort before '/' (0x2f), '0' (0x30) after it.
    write(repo.resolve("a.txt"), "1");
    write(repo.resolve("a-b"), "2");
    write(repo.resolve("a/inner"), "3");
    write(repo.resolve("a0"), "4");
    write(repo.resolve("A"), "5");
    write(repo.resolve("b/a.txt/x"), "6");
    write(repo.resolve("b/a"), "7");
    assertMatchesGit(repo);
  }

  @Test
  void executablesAndSymbolicLinks() throws IOException {
    Path repo = repo();
    Path script = write(repo.resolve("bin/run"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-x---"));
    Path groupOnly = write(repo.resolve("bin/group-exec"), "x\n");
    Files.setPosixFilePermissions(groupOnly, PosixFilePermissions.fromString("rw-r-xr-x"));
    Files.createSymbolicLink(repo.resolve("link-to-run"), Path.of("bin/run"));
    Files.createSymbolicLink(repo.resolve("dangling"), Path.of("does/not/exist"));
    Files.createSymbolicLink(repo.resolve("outside"), Path.of("/etc"));
    Files.createSymbolicLink(repo.resolve("unicode-target"), Path.of("ünï/名"));
    assertMatchesGit(repo);
  }

  @Test
  void emptyDirectoriesAndDirectoriesOfIgnoredFilesVanish() throws IOException {
    Path repo = repo();
    Files.createDirectories(repo.resolve("empty/nested/deeper"));
    write(repo.resolve(".gitignore"), "*.log\n");
    write(repo.resolve("logs/today.log"), "ignored\n");
    write(repo.resolve("kept.txt"), "kept\n");
    assertMatchesGit(repo);
  }

  @Test
  void ignoreRulesFromEveryLevelAndInfoExclude() throws IOException {
    Path repo = repo();
    write(repo.resolve(".gitignore"), "build/\n*.tmp\n!keep.tmp\n/rooted.txt\n# comment\n\\#hash\n");
    write(repo.resolve("sub/.gitignore"), "!*.tmp\nlocal-only\n");
    write(repo.resolve(".git/info/exclude"), "excluded-by-info\n");
    for (String path : List.of(
        "build/out.class", "x.tmp", "keep.tmp", "rooted.txt", "sub/rooted.txt", "#hash", "sub/y.tmp",
        "sub/local-only", "local-only", "excluded-by-info", "deep/excluded-by-info", "sub/build/z", "plain.txt")) {
      write(repo.resolve(path), path + "\n");
    }
    assertMatchesGit(repo);
  }

  @Test
  void nothingBelowAnIgnoredDirectoryCanBeReincluded() throws IOException {
    Path repo = repo();
    write(repo.resolve(".gitignore"), "gen/\n!gen/keep.txt\n");
    write(repo.resolve("gen/keep.txt"), "still ignored\n");
    write(repo.resolve("gen/.gitignore"), "!keep.txt\n");
    write(repo.resolve("ok.txt"), "ok\n");
    assertMatchesGit(repo);
    assertThat(WorkingTreeHash.of(repo)).isEqualTo(Git.writeTree(repo, scratch()).tree());
  }

  @Test
  void trackedFilesCountEvenWhenIgnoredAndDeletedTrackedFilesDisappear() throws IOException {
    Path repo = repo();
    write(repo.resolve("build/tracked.txt"), "tracked\n");
    write(repo.resolve("gone.txt"), "gone\n");
    write(repo.resolve("changed.txt"), "before\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "initial");
    write(repo.resolve(".gitignore"), "build/\nchanged.txt\n");
    write(repo.resolve("build/untracked.txt"), "untracked\n");
    write(repo.resolve("changed.txt"), "after, and longer\n");
    Files.delete(repo.resolve("gone.txt"));
    assertMatchesGit(repo);
  }

  @Test
  void trackedFileReplacedByDirectoryAndByLink() throws IOException {
    Path repo = repo();
    write(repo.resolve("was-file"), "file\n");
    write(repo.resolve("was-dir/inner.txt"), "inner\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "initial");
    Files.delete(repo.resolve("was-file"));
    write(repo.resolve("was-file/now-inside.txt"), "inside\n");
    Files.delete(repo.resolve("was-dir/inner.txt"));
    Files.delete(repo.resolve("was-dir"));
    Files.createSymbolicLink(repo.resolve("was-dir"), Path.of("was-file"));
    assertMatchesGit(repo);
  }

  @Test
  void intentToAddSkipWorktreeAndAssumeUnchangedEntries() throws IOException {
    Path repo = repo();
    write(repo.resolve("sparse.txt"), "sparse\n");
    write(repo.resolve("assumed.txt"), "assumed\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "initial");
    git(repo, "update-index", "--skip-worktree", "sparse.txt");
    Files.delete(repo.resolve("sparse.txt"));
    write(repo.resolve("intent.txt"), "intent\n");
    git(repo, "add", "-N", "intent.txt");
    assertMatchesGit(repo);
    // An assume-unchanged file is hashed from disk: the bit is a promise the audit does not take.
    git(repo, "update-index", "--assume-unchanged", "assumed.txt");
    write(repo.resolve("assumed.txt"), "changed behind git's back\n");
    String honest = WorkingTreeHash.of(repo);
    git(repo, "update-index", "--no-assume-unchanged", "assumed.txt");
    assertThat(honest).isEqualTo(Git.writeTree(repo, scratch()).tree());
  }

  @Test
  void nestedRepositoryIsAGitlinkToItsHead() throws IOException {
    Path repo = repo();
    Path nested = Git.init(repo.resolve("vendor/lib"));
    write(nested.resolve("lib.txt"), "lib\n");
    git(nested, "add", "-A");
    git(nested, "commit", "-q", "-m", "lib");
    write(repo.resolve("main.txt"), "main\n");
    assertMatchesGit(repo);
    git(nested, "checkout", "-q", "--detach");
    write(nested.resolve("lib.txt"), "lib 2\n");
    git(nested, "commit", "-q", "-am", "lib 2");
    git(nested, "pack-refs", "--all");
    assertMatchesGit(repo);
  }

  @Test
  void uninitializedSubmoduleKeepsItsIndexEntry() throws IOException {
    Path repo = repo();
    Path nested = Git.init(repo.resolve("sub"));
    write(nested.resolve("f"), "f\n");
    git(nested, "add", "-A");
    git(nested, "commit", "-q", "-m", "f");
    git(repo, "add", "sub");
    git(repo, "commit", "-q", "-m", "with sub");
    String before = WorkingTreeHash.of(repo);
    // Deinitialize: the directory stays, empty, the gitlink stays in the index.
    deleteRecursively(nested);
    Files.createDirectories(nested);
    assertThat(WorkingTreeHash.of(repo)).isEqualTo(before);
    assertMatchesGit(repo);
  }

  @Test
  void nestedRepositoryWithoutCommitFailsAsGitDoes() throws IOException {
    Path repo = repo();
    Git.init(repo.resolve("fresh"));
    assertThat(Git.writeTree(repo, scratch()).exitCode()).isNotZero();
    assertThatThrownBy(() -> WorkingTreeHash.of(repo))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("fresh/")
        .extracting(e -> ((AuditException) e).code())
        .isEqualTo(AuditException.SNAPSHOT_FAILED);
  }

  @Test
  void pathsGitRefusesFailTheHash() throws IOException {
    Path repo = repo();
    write(repo.resolve("d/.GIT"), "alias\n");
    assertThat(Git.writeTree(repo, scratch()).exitCode()).isNotZero();
    assertThatThrownBy(() -> WorkingTreeHash.of(repo))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("d/.GIT");
  }

  @Test
  void untrackedFifosAreSkipped() throws IOException {
    Path repo = repo();
    write(repo.resolve("a.txt"), "a\n");
    Git.exec(repo, Git.environment(), List.of("mkfifo", "pipe"));
    assertThat(Files.exists(repo.resolve("pipe"))).isTrue();
    assertMatchesGit(repo);
  }

  @Test
  void indexVersionFourIsRead() throws IOException {
    Path repo = repo();
    for (String path : List.of("dir/a", "dir/ab", "dir/abc/d", "dir2/x", "z")) {
      write(repo.resolve(path), path);
    }
    git(repo, "add", "-A");
    git(repo, "update-index", "--index-version", "4");
    write(repo.resolve(".gitignore"), "dir/\n");
    write(repo.resolve("dir/abc/e"), "untracked, ignored");
    assertMatchesGit(repo);
  }

  @Test
  void aDirectoryWithoutGitIsHashedAsANewRepository() throws IOException {
    Path plain = Files.createDirectories(temp.resolve("plain"));
    write(plain.resolve(".gitignore"), "*.o\n");
    write(plain.resolve("main.c"), "int main;\n");
    write(plain.resolve("main.o"), "object\n");
    assertMatchesGit(plain);
  }

  @Test
  void linkedWorktreeUsesItsOwnIndexAndTheCommonExcludes() throws IOException {
    Path repo = repo();
    write(repo.resolve("f.txt"), "f\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "f");
    Path worktree = temp.resolve("linked");
    git(repo, "worktree", "add", "-q", worktree.toString());
    write(repo.resolve(".git/info/exclude"), "*.secret\n");
    write(worktree.resolve("local.secret"), "excluded\n");
    write(worktree.resolve("new.txt"), "new\n");
    assertMatchesGit(worktree);
  }

  @Test
  void neverWritesTheRepository() throws IOException {
    Path repo = repo();
    write(repo.resolve("a.txt"), "a\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "a");
    write(repo.resolve("b.txt"), "b\n");
    write(repo.resolve("a.txt"), "a changed\n");
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    WorkingTreeHash.of(repo);
    assertThat(before.diff(before.retake()).changes()).isEmpty();
  }

  @Test
  void refusesSplitIndexes() throws IOException {
    Path repo = repo();
    write(repo.resolve("a.txt"), "a\n");
    git(repo, "add", "-A");
    git(repo, "update-index", "--split-index");
    assertThatThrownBy(() -> WorkingTreeHash.of(repo))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("split or sparse index");
  }

  @Test
  void refusesACorruptIndex() throws IOException {
    Path repo = repo();
    write(repo.resolve("a.txt"), "a\n");
    git(repo, "add", "-A");
    Path index = repo.resolve(".git/index");
    byte[] bytes = Files.readAllBytes(index);
    bytes[bytes.length / 2] ^= 1;
    Files.write(index, bytes);
    assertThatThrownBy(() -> WorkingTreeHash.of(repo))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("checksum");
  }

  @Test
  void refusesSha256Repositories() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("sha256"));
    git(dir, "init", "-q", "--object-format=sha256");
    assertThatThrownBy(() -> WorkingTreeHash.of(dir))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("sha256");
  }

  @Test
  void refusesWhatIsNotARepositoryDirectory() throws IOException {
    Path file = write(temp.resolve("file"), "x");
    assertThatThrownBy(() -> WorkingTreeHash.of(file))
        .isInstanceOf(AuditException.class)
        .extracting(e -> ((AuditException) e).code())
        .isEqualTo(AuditException.REPOSITORY_INVALID);
    assertThatThrownBy(() -> WorkingTreeHash.of(temp.resolve("missing")))
        .extracting(e -> ((AuditException) e).code())
        .isEqualTo(AuditException.REPOSITORY_INVALID);
  }

  @Test
  void refusesABrokenDotGit() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("broken"));
    write(dir.resolve(".git"), "not a gitdir line\n");
    assertThatThrownBy(() -> WorkingTreeHash.of(dir))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining(".git exists but");
  }

  static void deleteRecursively(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
