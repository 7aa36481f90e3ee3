package dev.capability.kernel.core.internal.audit;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepositorySnapshotTest {
  @TempDir Path temp;

  private Path repo() {
    return Git.init(temp.resolve("repo"));
  }

  private static Path write(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  private static List<String> describe(RepositoryChanges changes) {
    return changes.changes().stream()
        .map(c -> c.kind() + " " + c.path() + " " + c.type() + (c.ignored() ? " ignored" : ""))
        .toList();
  }

  private static RepositoryChanges workTreeOnly(RepositoryChanges changes) {
    return new RepositoryChanges(changes.changes().stream().filter(c -> !c.path().startsWith(".git/") && !c.path().equals(".git")).toList());
  }

  @Test
  void recordsEveryEntryWithoutFollowingLinks() throws IOException {
    Path outside = write(temp.resolve("outside/secret.txt"), "outside").getParent();
    Path repo = repo();
    Path file = write(repo.resolve("dir/file.txt"), "12345");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-x---"));
    Files.createSymbolicLink(repo.resolve("out"), outside);
    Git.exec(repo, Git.environment(), List.of("mkfifo", "pipe"));

    RepositorySnapshot snapshot = RepositorySnapshot.take(repo);

    PathState state = snapshot.entry("dir/file.txt").orElseThrow();
    assertThat(state.type()).isEqualTo(EntryType.FILE);
    assertThat(state.size()).isEqualTo(5);
    assertThat(state.mode()).isEqualTo(0750);
    assertThat(state.inode()).isEqualTo(Files.getAttribute(file, "unix:ino"));
    assertThat(snapshot.entry("dir").orElseThrow().type()).isEqualTo(EntryType.DIRECTORY);
    assertThat(snapshot.entry("out").orElseThrow().linkTarget()).contains(outside.toString());
    assertThat(snapshot.entries().keySet()).noneMatch(p -> p.startsWith("out/"));
    assertThat(snapshot.entry("pipe").orElseThrow().type()).isEqualTo(EntryType.OTHER);
    assertThat(snapshot.entry(".git/HEAD")).isPresent();
    assertThat(snapshot.root()).isEqualTo(repo.toRealPath());
  }

  @Test
  void reportsCreationsAndDeletionsOfEveryPath() throws IOException {
    Path repo = repo();
    write(repo.resolve("old/a.txt"), "a");
    write(repo.resolve("old/b/c.txt"), "c");
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    WorkingTreeHashTest.deleteRecursively(repo.resolve("old"));
    write(repo.resolve("new/d.txt"), "d");

    assertThat(describe(before.diff(before.retake()))).containsExactly(
        "CREATED new DIRECTORY",
        "CREATED new/d.txt FILE",
        "DELETED old DIRECTORY",
        "DELETED old/a.txt FILE",
        "DELETED old/b DIRECTORY",
        "DELETED old/b/c.txt FILE");
  }

  @Test
  void detectsARacyRewriteThatRestoresSizeAndModificationTime() throws IOException {
    Path repo = repo();
    Path file = write(repo.resolve("config.txt"), "safe");
    FileTime modified = Files.getLastModifiedTime(file);
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    assertThat(before.entry("config.txt").orElseThrow().contentHash()).as("a just-written file is racy").isPresent();

    Files.writeString(file, "evil");
    Files.setLastModifiedTime(file, modified);

    assertThat(describe(before.diff(before.retake()))).containsExactly("MODIFIED config.txt FILE");
  }

  @Test
  void detectsRewritesOfSettledFilesThroughTheChangeTime() throws IOException, InterruptedException {
    Path repo = repo();
    Path rewritten = write(repo.resolve("rewritten.txt"), "safe");
    Path chmodded = write(repo.resolve("chmodded.sh"), "echo");
    write(repo.resolve("untouched.txt"), "same");
    Thread.sleep(RepositorySnapshot.RACY_WINDOW.toMillis() + 200);
    FileTime modified = Files.getLastModifiedTime(rewritten);
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    assertThat(before.entry("rewritten.txt").orElseThrow().contentHash()).as("a settled file is not hashed").isEmpty();

    Files.writeString(rewritten, "evil");
    Files.setLastModifiedTime(rewritten, modified);
    Files.setPosixFilePermissions(chmodded, PosixFilePermissions.fromString("rwxr-xr-x"));

    assertThat(describe(workTreeOnly(before.diff(before.retake())))).containsExactly(
        "MODE_CHANGED chmodded.sh FILE", "MODIFIED rewritten.txt FILE");
  }

  @Test
  void detectsASettledFileReplacedByAnotherOfTheSameSizeAndTimes() throws IOException, InterruptedException {
    Path repo = repo();
    Path victim = write(repo.resolve("victim.txt"), "safe");
    Thread.sleep(RepositorySnapshot.RACY_WINDOW.toMillis() + 200);
    FileTime modified = Files.getLastModifiedTime(victim);
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    assertThat(before.entry("victim.txt").orElseThrow().contentHash()).as("a settled file is not hashed").isEmpty();

    // A forger outside the repository prepares a file of the same size, mode and times, then
    // renames it over the original: only the inode and the change time differ.
    Path forged = write(temp.resolve("forged.txt"), "evil");
    Files.setPosixFilePermissions(forged, Files.getPosixFilePermissions(victim));
    Files.setLastModifiedTime(forged, modified);
    Files.move(forged, victim, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    assertThat(Files.getLastModifiedTime(victim)).isEqualTo(modified);
    assertThat(Files.size(victim)).isEqualTo(4);

    assertThat(describe(workTreeOnly(before.diff(before.retake())))).containsExactly("MODIFIED victim.txt FILE");
  }

  @Test
  void recordsPathsInStringOrderWhenNamesExtendADirectoryName() throws IOException {
    Path repo = repo();
    for (String path : List.of("a/x", "a.b", "a-b/y", "a0", "a/b/c", "a b", "ab", "\u00e9/z", "a/.hidden")) {
      write(repo.resolve(path), path);
    }

    RepositorySnapshot snapshot = RepositorySnapshot.take(repo);

    List<String> paths = snapshot.entries().keySet().stream().filter(p -> !p.startsWith(".git")).toList();
    assertThat(paths).isSorted().containsExactly(
        "a", "a b", "a-b", "a-b/y", "a.b", "a/.hidden", "a/b", "a/b/c", "a/x", "a0", "ab", "\u00e9", "\u00e9/z");
    // The map is built from the walk's order without comparing: a wrong order would break lookups.
    assertThat(paths).allSatisfy(p -> assertThat(snapshot.entry(p)).isPresent());
  }

  @Test
  void touchingARacyFileWithoutChangingItsContentIsNoChange() throws IOException {
    Path repo = repo();
    Path file = write(repo.resolve("a.txt"), "content");
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(60)));
    assertThat(before.diff(before.retake()).isEmpty()).isTrue();
  }

  @Test
  void anUnchangedRacyFileCountsAsModifiedWhenTheSecondSnapshotIsNotARetake() throws IOException {
    Path repo = repo();
    write(repo.resolve("a.txt"), "content");
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    RepositorySnapshot unrelated = new RepositorySnapshot(
        before.root(), Instant.now(), new TreeMap<>(Map.of("a.txt", withoutHash(before.entry("a.txt").orElseThrow()))), new IgnoreRules());
    assertThat(describe(before.diff(unrelated))).contains("MODIFIED a.txt FILE");
  }

  @Test
  void recordsLinkRetargetsAndNeverLooksThroughLinks() throws IOException {
    Path outside = write(temp.resolve("outside/file.txt"), "1");
    Path repo = repo();
    Path link = Files.createSymbolicLink(repo.resolve("link"), Path.of("a"));
    Files.createSymbolicLink(repo.resolve("out"), outside);
    RepositorySnapshot before = RepositorySnapshot.take(repo);

    Files.delete(link);
    Files.createSymbolicLink(link, Path.of("b"));
    Files.writeString(outside, "changed through the link's target, outside the repository");

    assertThat(describe(before.diff(before.retake()))).containsExactly("RETARGETED link SYMLINK");
  }

  @Test
  void aModeChangeIsReportedAsSuch() throws IOException {
    Path repo = repo();
    Path script = write(repo.resolve("run.sh"), "echo");
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThat(describe(before.diff(before.retake()))).containsExactly("MODE_CHANGED run.sh FILE");
  }

  @Test
  void reportsTypeChanges() throws IOException {
    Path repo = repo();
    Path fileThenDir = write(repo.resolve("x"), "file");
    Path dirThenFile = write(repo.resolve("y/inner"), "inner").getParent();
    Path fileThenLink = write(repo.resolve("z"), "file");
    RepositorySnapshot before = RepositorySnapshot.take(repo);

    Files.delete(fileThenDir);
    write(fileThenDir.resolve("child"), "child");
    WorkingTreeHashTest.deleteRecursively(dirThenFile);
    write(dirThenFile, "now a file");
    Files.delete(fileThenLink);
    Files.createSymbolicLink(fileThenLink, Path.of("x"));

    assertThat(describe(before.diff(before.retake()))).containsExactly(
        "TYPE_CHANGED x DIRECTORY",
        "CREATED x/child FILE",
        "TYPE_CHANGED y FILE",
        "DELETED y/inner FILE",
        "TYPE_CHANGED z SYMLINK");
  }

  @Test
  void ignoredPathsAreReportedAndFlagged() throws IOException {
    Path repo = repo();
    write(repo.resolve(".gitignore"), "build/\n*.log\n");
    write(repo.resolve("sub/.gitignore"), "local/\n");
    write(repo.resolve(".git/info/exclude"), "*.excluded\n");
    RepositorySnapshot before = RepositorySnapshot.take(repo);

    write(repo.resolve("build/classes/A.class"), "class");
    write(repo.resolve("run.log"), "log");
    write(repo.resolve("sub/local/x"), "x");
    write(repo.resolve("notes.excluded"), "excluded");
    write(repo.resolve("src/A.java"), "class A {}");

    assertThat(describe(before.diff(before.retake()))).containsExactly(
        "CREATED build DIRECTORY ignored",
        "CREATED build/classes DIRECTORY ignored",
        "CREATED build/classes/A.class FILE ignored",
        "CREATED notes.excluded FILE ignored",
        "CREATED run.log FILE ignored",
        "CREATED src DIRECTORY",
        "CREATED src/A.java FILE",
        "CREATED sub/local DIRECTORY ignored",
        "CREATED sub/local/x FILE ignored");
  }

  @Test
  void anIgnoreRuleTheCommandAddsDoesNotFlagWhatItWrites() throws IOException {
    Path repo = repo();
    write(repo.resolve("src/Main.java"), "class Main {}");
    RepositorySnapshot before = RepositorySnapshot.take(repo);

    write(repo.resolve(".gitignore"), "src/\n");
    write(repo.resolve("src/Main.java"), "class Main { /* backdoor */ }");

    RepositoryChanges changes = before.diff(before.retake());
    assertThat(changes.changes())
        .extracting(PathChange::path, PathChange::kind, PathChange::ignored)
        .containsExactly(
            tuple(".gitignore", ChangeKind.CREATED, false),
            tuple("src/Main.java", ChangeKind.MODIFIED, false));
  }

  @Test
  void changesInsideTheGitDirectoryAreSeen() throws IOException {
    Path repo = repo();
    write(repo.resolve("a.txt"), "a");
    RepositorySnapshot before = RepositorySnapshot.take(repo);

    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "commit inside the command");

    RepositoryChanges changes = before.diff(before.retake());
    assertThat(changes.paths()).contains(".git/index", ".git/refs/heads/main", ".git/logs/HEAD");
    assertThat(changes.paths()).anyMatch(p -> p.matches("\\.git/objects/[0-9a-f]{2}"));
    assertThat(before.retake().entries().keySet()).noneMatch(p -> p.matches("\\.git/objects/[0-9a-f]{2}/.*"));
  }

  @Test
  void aLooseObjectWrittenAloneIsSeen() throws IOException {
    Path repo = repo();
    write(repo.resolve("a.txt"), "a");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "a");
    RepositorySnapshot before = RepositorySnapshot.take(repo);

    String id = Git.exec(repo, Git.environment(), List.of("git", "hash-object", "-w", "--stdin"), "hidden\n").stdout().strip();

    assertThat(before.diff(before.retake()).paths())
        .anyMatch(p -> p.equals(".git/objects/" + id.substring(0, 2)));
  }

  @Test
  void changesAreSortedAndDistinctPerKind() throws IOException {
    Path repo = repo();
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    for (String name : List.of("z", "b", "a/c", "A", "é")) {
      write(repo.resolve(name), name);
    }
    List<String> paths = workTreeOnly(before.diff(before.retake())).paths();
    assertThat(paths).isSorted().doesNotHaveDuplicates().contains("A", "a", "a/c", "b", "z", "é");
  }

  @Test
  void refusesAMissingRepositoryOrAFile() throws IOException {
    Path file = write(temp.resolve("file"), "x");
    for (Path bad : List.of(file, temp.resolve("missing"))) {
      assertThatThrownBy(() -> RepositorySnapshot.take(bad))
          .isInstanceOf(AuditException.class)
          .hasMessageContaining(bad.toString())
          .extracting(e -> ((AuditException) e).code())
          .isEqualTo(AuditException.REPOSITORY_INVALID);
    }
  }

  @Test
  void refusesANameTheJvmCannotDecode() throws Exception {
    Path repo = repo();
    // Java cannot name such a file, so printf writes the name's bytes and xargs hands them to touch:
    // two programs joined by a pipe, each started by argv, no shell between them.
    List<Process> made = ProcessBuilder.startPipeline(List.of(
        new ProcessBuilder("printf", "bad\\377name\\0").redirectError(ProcessBuilder.Redirect.DISCARD),
        new ProcessBuilder("xargs", "-0", "touch", "--").directory(repo.toFile()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)));
    for (Process process : made) {
      assertThat(process.waitFor()).isZero();
    }
    assertThatThrownBy(() -> RepositorySnapshot.take(repo))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("file name encoding")
        .extracting(e -> ((AuditException) e).code())
        .isEqualTo(AuditException.SNAPSHOT_FAILED);
  }

  @Test
  void refusesToDiffSnapshotsOfDifferentRepositories() {
    RepositorySnapshot one = RepositorySnapshot.take(Git.init(temp.resolve("one")));
    RepositorySnapshot two = RepositorySnapshot.take(Git.init(temp.resolve("two")));
    assertThatThrownBy(() -> one.diff(two)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void filesWithNewContentAreThoseAScanMustRead() throws IOException {
    Path repo = repo();
    Path modeOnly = write(repo.resolve("mode-only"), "m");
    write(repo.resolve("deleted"), "d");
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    write(repo.resolve("created"), "c");
    Files.setPosixFilePermissions(modeOnly, PosixFilePermissions.fromString("rwx------"));
    Files.delete(repo.resolve("deleted"));
    Files.createDirectories(repo.resolve("dir"));
    assertThat(before.diff(before.retake()).filesWithNewContent()).containsExactly("created", "mode-only");
    assertThat(Files.isDirectory(repo.resolve("dir"), LinkOption.NOFOLLOW_LINKS)).isTrue();
  }

  private static PathState withoutHash(PathState s) {
    return new PathState(s.type(), s.mode(), s.size(), s.device(), s.inode(), s.modifiedNanos(), s.changedNanos(), s.linkTarget(), Optional.empty());
  }
}
