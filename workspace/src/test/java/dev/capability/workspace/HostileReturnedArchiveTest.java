package dev.capability.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A returned archive is checked like a hostile package: each attack here is refused with its code,
 * the message names the entry, and the host's tree is exactly as before, even when the archive's
 * first entries were harmless.
 */
class HostileReturnedArchiveTest {
  @TempDir Path base;
  private Path repository;
  private Map<String, String> before;

  @BeforeEach
  void repository() throws IOException {
    repository = base.resolve("repo");
    RepositoryTrees.write(repository.resolve(".git/config"), "[core]\n");
    RepositoryTrees.write(repository.resolve("src/Main.java"), "class Main {}\n");
    RepositoryTrees.write(repository.resolve("src/secret.key"), "key\n");
    RepositoryTrees.write(repository.resolve("build/old.txt"), "old\n");
    RepositoryTrees.write(repository.resolve("README.md"), "readme\n");
    Files.createDirectories(base.resolve("outside"));
    before = RepositoryTrees.of(base);
  }

  private WorkspaceOutcome receive(byte[] tar) throws IOException {
    return receive(tar, WorkspaceLimits.DEFAULT, List.of(Path.of("src"), Path.of("build")));
  }

  private WorkspaceOutcome receive(byte[] tar, WorkspaceLimits limits, List<Path> roots) throws IOException {
    RepositoryWorkspace workspace = RepositoryWorkspace.builder(repository, "tree")
        .writableRoots(roots)
        .protectedPaths(List.of(repository.resolve(".git"), repository.resolve("src/secret.key")))
        .limits(limits)
        .build();
    workspace.receiveWritableRoots(new ByteArrayInputStream(tar));
    return workspace.outcome();
  }

  private void assertRefused(WorkspaceOutcome outcome, String code, String named) {
    assertThat(outcome.status()).isEqualTo(WorkspaceOutcome.Status.REFUSED);
    assertThat(outcome.code()).contains(code);
    assertThat(outcome.message()).contains(named);
    assertThat(outcome.created()).isEmpty();
    assertThat(outcome.changed()).isEmpty();
    assertThat(outcome.removed()).isEmpty();
    assertThat(RepositoryTrees.of(base)).isEqualTo(before);
  }

  /** Harmless entries first, so that a refusal must undo nothing because nothing was applied yet. */
  private static HostileTar harmlessStart() {
    return new HostileTar().directory("src/").file("src/New.java", "class New {}\n").file("src/Main.java", "changed\n");
  }

  @Test
  void aDotDotSegmentIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().file("src/../../outside/escaped", "x").end()),
        WorkspaceCodes.RETURN_TRAVERSAL, "src/../../outside/escaped");
  }

  @Test
  void anAbsoluteNameIsRefused() throws IOException {
    String absolute = base.resolve("outside/escaped").toString();
    assertRefused(receive(harmlessStart().file(absolute, "x").end()), WorkspaceCodes.RETURN_TRAVERSAL, absolute);
  }

  @Test
  void aPaxPathIsCheckedInsteadOfTheUstarName() throws IOException {
    byte[] tar = harmlessStart().pax(HostileTar.record("path", "src/../../outside/escaped")).file("src/harmless", "x").end();
    assertRefused(receive(tar), WorkspaceCodes.RETURN_TRAVERSAL, "src/../../outside/escaped");
  }

  @Test
  void aNulInAPaxPathIsRefused() throws IOException {
    byte[] tar = harmlessStart().pax(HostileTar.record("path", "src/a\0/../../x")).file("src/harmless", "x").end();
    assertRefused(receive(tar), WorkspaceCodes.RETURN_HOSTILE_NAME, "src/a\\x00");
  }

  @Test
  void aSymlinkLeavingItsRootIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().symlink("src/out", "../README.md").end()), WorkspaceCodes.RETURN_LINK_OUT, "src/out");
  }

  @Test
  void aSymlinkWithAnAbsoluteTargetIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().symlink("src/passwd", "/etc/passwd").end()), WorkspaceCodes.RETURN_LINK_OUT, "src/passwd");
  }

  @Test
  void aSymlinkClimbingAfterANameIsRefusedSinceTheNameMayBeALink() throws IOException {
    byte[] tar = harmlessStart().symlink("src/self", ".").symlink("src/up", "self/..").end();
    assertRefused(receive(tar), WorkspaceCodes.RETURN_LINK_OUT, "src/up");
  }

  @Test
  void anEntryBelowASymlinkOfTheArchiveIsRefused() throws IOException {
    byte[] tar = harmlessStart().symlink("src/here", ".").file("src/here/x", "x").end();
    assertRefused(receive(tar), WorkspaceCodes.RETURN_NAME_CONFLICT, "src/here/x");
  }

  @Test
  void theSameNameTwiceIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().file("src/New.java", "again").end()), WorkspaceCodes.RETURN_NAME_CONFLICT, "src/New.java");
  }

  @Test
  void aHardLinkIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().header("src/h", '1', "src/Main.java", 0, 0644).end()), WorkspaceCodes.RETURN_HARD_LINK, "src/h");
  }

  @Test
  void aDeviceIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().header("src/null", '3', "", 0, 0666).end()), WorkspaceCodes.RETURN_SPECIAL_FILE, "src/null");
  }

  @Test
  void aFifoIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().header("src/pipe", '6', "", 0, 0644).end()), WorkspaceCodes.RETURN_SPECIAL_FILE, "src/pipe");
  }

  @Test
  void sparseGnuAndGlobalHeadersAreRefused() throws IOException {
    assertRefused(receive(harmlessStart().header("src/sparse", 'S', "", 0, 0644).end()), WorkspaceCodes.RETURN_UNSUPPORTED_TYPE, "src/sparse");
    assertRefused(receive(harmlessStart().header("././@LongLink", 'L', "", 0, 0644).end()), WorkspaceCodes.RETURN_UNSUPPORTED_TYPE, "@LongLink");
    assertRefused(receive(harmlessStart().header("global", 'g', "", 0, 0644).end()), WorkspaceCodes.RETURN_UNSUPPORTED_TYPE, "global");
    byte[] paxSparse = harmlessStart().pax(HostileTar.record("GNU.sparse.major", "1")).file("src/s", "x").end();
    assertRefused(receive(paxSparse), WorkspaceCodes.RETURN_UNSUPPORTED_TYPE, "sparse");
  }

  @Test
  void anArchiveOverTheByteLimitIsRefused() throws IOException {
    WorkspaceLimits limits = new WorkspaceLimits(1 << 20, 8 * 1024, 100, 4096);
    byte[] tar = harmlessStart().file("src/big", "x".repeat(10_000)).end();
    assertRefused(receive(tar, limits, List.of(Path.of("src"))), WorkspaceCodes.RETURN_TOO_LARGE, "src/big");
  }

  @Test
  void aDeclaredSizeOverTheLimitIsRefusedBeforeItsContentIsRead() throws IOException {
    byte[] tar = harmlessStart().header("src/huge", '0', "", 077777777777L, 0644).end();
    assertRefused(receive(tar), WorkspaceCodes.RETURN_TOO_LARGE, "src/huge");
  }

  @Test
  void tooManyEntriesAreRefused() throws IOException {
    WorkspaceLimits limits = new WorkspaceLimits(1 << 20, 1 << 20, 3, 4096);
    byte[] tar = harmlessStart().file("src/fourth", "x").end();
    assertRefused(receive(tar, limits, List.of(Path.of("src"))), WorkspaceCodes.RETURN_TOO_MANY_ENTRIES, "3 entries");
  }

  @Test
  void aNameOverTheLengthLimitIsRefused() throws IOException {
    WorkspaceLimits limits = new WorkspaceLimits(1 << 20, 1 << 20, 100, 64);
    String name = "src/" + "n".repeat(80);
    byte[] tar = harmlessStart().pax(HostileTar.record("path", name)).file("src/short", "x").end();
    assertRefused(receive(tar, limits, List.of(Path.of("src"))), WorkspaceCodes.RETURN_NAME_TOO_LONG, "src/nnn");
  }

  @Test
  void anArchiveWithoutEndBlocksIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().unended()), WorkspaceCodes.RETURN_CORRUPT, "end blocks");
  }

  @Test
  void anArchiveCutInsideAnEntryIsRefused() throws IOException {
    byte[] whole = harmlessStart().file("src/cut", "y".repeat(2000)).end();
    byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 1024 - 1200);
    assertRefused(receive(cut), WorkspaceCodes.RETURN_CORRUPT, "ends inside");
  }

  @Test
  void aHeaderWithAWrongChecksumIsRefused() throws IOException {
    byte[] tar = harmlessStart().file("src/bad", "x").end();
    tar[3 * 512 + 2 * 512 + 0] ^= 1; // the first byte of the fourth header's name
    assertRefused(receive(tar), WorkspaceCodes.RETURN_CORRUPT, "checksum");
  }

  @Test
  void dataAfterTheEndBlocksIsRefused() throws IOException {
    byte[] tar = harmlessStart().raw(new byte[1024]).raw("smuggled".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).unended();
    assertRefused(receive(tar), WorkspaceCodes.RETURN_CORRUPT, "after its end blocks");
  }

  @Test
  void aWriteIntoTheGitDirectoryIsRefused() throws IOException {
    byte[] tar = harmlessStart().file(".git/hooks/pre-commit", "#!/bin/sh\n").end();
    assertRefused(receive(tar, WorkspaceLimits.DEFAULT, List.of(Path.of(""))), WorkspaceCodes.RETURN_PROTECTED_PATH, ".git/hooks/pre-commit");
  }

  @Test
  void aNestedGitDirectoryIsProtectedToo() throws IOException {
    assertRefused(receive(harmlessStart().file("src/vendored/.git/config", "x").end()), WorkspaceCodes.RETURN_PROTECTED_PATH, "src/vendored/.git/config");
  }

  @Test
  void aWriteToAProtectedPathInsideARootIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().file("src/secret.key", "stolen").end()), WorkspaceCodes.RETURN_PROTECTED_PATH, "src/secret.key");
  }

  @Test
  void aWriteOutsideTheWritableRootsIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().file("README.md", "defaced").end()), WorkspaceCodes.RETURN_OUTSIDE_ROOTS, "README.md");
  }

  @Test
  void aFileReplacingAWritableRootIsRefused() throws IOException {
    assertRefused(receive(harmlessStart().file("build", "x").end()), WorkspaceCodes.RETURN_OUTSIDE_ROOTS, "build");
  }

  @Test
  void aWritableRootThatIsALinkOnTheHostIsNotFollowed() throws IOException {
    Files.delete(repository.resolve("build/old.txt"));
    Files.delete(repository.resolve("build"));
    Files.createSymbolicLink(repository.resolve("build"), base.resolve("outside"));
    before = RepositoryTrees.of(base);
    WorkspaceOutcome outcome = receive(new HostileTar().file("build/planted", "x").end());
    assertThat(outcome.code()).contains(WorkspaceCodes.RETURN_APPLY_FAILED);
    assertThat(outcome.message()).contains("'build'").contains("nothing was applied");
    assertThat(RepositoryTrees.of(base)).isEqualTo(before);
  }

  @Test
  void aSymlinkInTheHostTreeIsReplacedNotFollowed() throws IOException {
    Files.createSymbolicLink(repository.resolve("build/out"), base.resolve("outside"));
    WorkspaceOutcome outcome = receive(new HostileTar().directory("build/out/").file("build/out/planted", "x").end());
    assertThat(outcome.status()).isEqualTo(WorkspaceOutcome.Status.APPLIED);
    assertThat(Files.isDirectory(repository.resolve("build/out"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isTrue();
    assertThat(repository.resolve("build/out/planted")).hasContent("x");
    assertThat(base.resolve("outside")).isEmptyDirectory();
    assertThat(outcome.changed()).containsExactly("build/out");
  }

  @Test
  void anAcceptedArchiveMakesEachRootEqualToItsContent() throws IOException {
    String longName = "src/" + "deep/".repeat(30) + "Long\u00e9.java";
    byte[] tar = new HostileTar()
        .directory("./")
        .directory("./src/")
        .file("./src/Main.java", "class Main { int x; }\n")
        .file("src/secret.key", "key\n")
        .end();
    // A protected path may not appear even unchanged: an honest backend leaves it out.
    assertThat(receive(tar).code()).contains(WorkspaceCodes.RETURN_PROTECTED_PATH);

    byte[] honest = new HostileTar()
        .directory("./")
        .directory("./src/")
        .file("./src/Main.java", "class Main { int x; }\n")
        .pax(HostileTar.record("path", longName))
        .file("src/placeholder", "long\n")
        .symlink("src/link", "Main.java")
        .directory("build/")
        .end();
    WorkspaceOutcome outcome = receive(honest);

    assertThat(outcome.status()).isEqualTo(WorkspaceOutcome.Status.APPLIED);
    assertThat(repository.resolve("src/Main.java")).hasContent("class Main { int x; }");
    assertThat(repository.resolve(longName)).hasContent("long");
    assertThat(Files.readSymbolicLink(repository.resolve("src/link"))).isEqualTo(Path.of("Main.java"));
    assertThat(repository.resolve("src/secret.key")).as("a protected path the archive leaves out stays").hasContent("key");
    assertThat(repository.resolve("build/old.txt")).doesNotExist();
    assertThat(repository.resolve("README.md")).hasContent("readme");
    assertThat(outcome.changed()).containsExactly("src/Main.java");
    assertThat(outcome.removed()).containsExactly("build/old.txt");
    assertThat(outcome.created()).contains(longName, "src/link", "src/deep");
    assertThat(outcome.code()).isEmpty();
  }

  @Test
  void theRepositoryAsARootKeepsItsGitDirectoryAndProtectedPaths() throws IOException {
    byte[] tar = new HostileTar().directory("./").file("./src/Main.java", "class Main {}\n").directory("./build/").end();

    WorkspaceOutcome outcome = receive(tar, WorkspaceLimits.DEFAULT, List.of(Path.of("")));

    assertThat(outcome.status()).as(outcome.message()).isEqualTo(WorkspaceOutcome.Status.APPLIED);
    assertThat(repository.resolve(".git/config")).hasContent("[core]");
    assertThat(repository.resolve("src/secret.key")).hasContent("key");
    assertThat(outcome.removed()).containsExactly("README.md", "build/old.txt");
    assertThat(outcome.changed()).isEmpty();
  }
}
