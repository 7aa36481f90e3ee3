package dev.capability.integrations.agentsandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.testing.HostPrograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springaicommunity.sandbox.FileEntry;
import org.springaicommunity.sandbox.FileSpec;
import org.springaicommunity.sandbox.FileType;
import org.springaicommunity.sandbox.SandboxFiles;

/**
 * The sandbox's file operations stay inside the work directory: links planted in it (to {@code
 * /etc}, to a directory beside it, to a file, dangling), {@code ..} and absolute paths are refused,
 * and nothing outside is read, written or deleted.
 */
class WorkDirectoryFilesTest {
  private static final BackendGate PROCESS = BackendGate.of(new ProcessBackendProvider(), BackendConfig.defaults());
  /** A name that must never appear in /etc: a broken write through the link would create it. */
  private static final String ETC_PROBE = "capability-agent-sandbox-probe";

  @TempDir Path temp;
  private Path work;
  private Path outside;
  private SandboxFiles files;

  @BeforeEach
  void plantLinks() throws IOException {
    KernelSandbox sandbox = TckSandboxes.tckSandbox(PROCESS.backend(), NetworkMode.HOST, temp);
    work = sandbox.workDir();
    files = sandbox.files();
    outside = Files.createDirectory(temp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "secret");
    Files.createSymbolicLink(work.resolve("to-etc"), Path.of("/etc"));
    Files.createSymbolicLink(work.resolve("to-outside"), outside);
    Files.createSymbolicLink(work.resolve("to-secret"), outside.resolve("secret.txt"));
    Files.createSymbolicLink(work.resolve("dangling"), outside.resolve("new.txt"));
    Files.createSymbolicLink(work.resolve("relative-escape"), Path.of("../outside"));
    Files.createDirectories(work.resolve("dir/sub"));
    Files.writeString(work.resolve("dir/sub/own.txt"), "own");
    Files.createSymbolicLink(work.resolve("dir/inner-link"), outside);
  }

  @AfterAll
  static void closeBackend() {
    PROCESS.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"to-etc/passwd", "to-etc/hostname", "to-outside/secret.txt", "relative-escape/secret.txt", "to-secret", "dir/inner-link/secret.txt"})
  void readingThroughOrAtALinkIsRefused(String path) {
    assertRefused(files -> files.read(path), KernelSandboxException.PATH_SYMBOLIC_LINK);
  }

  @Test
  void writingThroughOrAtALinkIsRefusedAndNothingAppearsOutside() throws IOException {
    try {
      assertRefused(files -> files.create("to-etc/" + ETC_PROBE, "x"), KernelSandboxException.PATH_SYMBOLIC_LINK);
      assertRefused(files -> files.createDirectory("to-etc/" + ETC_PROBE), KernelSandboxException.PATH_SYMBOLIC_LINK);
      assertRefused(files -> files.create("to-outside/new.txt", "x"), KernelSandboxException.PATH_SYMBOLIC_LINK);
      assertRefused(files -> files.create("relative-escape/new.txt", "x"), KernelSandboxException.PATH_SYMBOLIC_LINK);
      assertRefused(files -> files.create("to-secret", "overwritten"), KernelSandboxException.PATH_SYMBOLIC_LINK);
      assertRefused(files -> files.create("dangling", "created"), KernelSandboxException.PATH_SYMBOLIC_LINK);
      assertRefused(files -> files.createDirectory("to-outside/sub/deeper"), KernelSandboxException.PATH_SYMBOLIC_LINK);
      assertRefused(files -> files.setup(List.of(FileSpec.of("fine.txt", "fine"), FileSpec.of("dir/inner-link/x", "x"))),
          KernelSandboxException.PATH_SYMBOLIC_LINK);

      assertThat(Path.of("/etc", ETC_PROBE)).doesNotExist();
      assertThat(outside.resolve("secret.txt")).hasContent("secret");
      try (Stream<Path> entries = Files.list(outside)) {
        assertThat(entries).containsExactly(outside.resolve("secret.txt"));
      }
    } finally {
      Files.deleteIfExists(Path.of("/etc", ETC_PROBE));
    }
  }

  @Test
  void deletingThroughOrAtALinkIsRefusedAndTheTargetStays() {
    assertRefused(files -> files.delete("to-outside/secret.txt"), KernelSandboxException.PATH_SYMBOLIC_LINK);
    assertRefused(files -> files.delete("to-outside", true), KernelSandboxException.PATH_SYMBOLIC_LINK);
    assertRefused(files -> files.delete("to-secret"), KernelSandboxException.PATH_SYMBOLIC_LINK);

    assertThat(outside.resolve("secret.txt")).hasContent("secret");
    assertThat(work.resolve("to-outside")).isSymbolicLink();
    assertThat(work.resolve("to-secret")).isSymbolicLink();
  }

  @Test
  void aRecursiveDeleteRemovesTheLinksInsideTheTreeNotWhatTheyPointTo() {
    files.delete("dir", true);

    assertThat(work.resolve("dir")).doesNotExist();
    assertThat(outside.resolve("secret.txt")).hasContent("secret");
  }

  @Test
  void aListingShowsLinksAsFilesAndNeverEntersThem() {
    assertRefused(files -> files.list("to-etc"), KernelSandboxException.PATH_SYMBOLIC_LINK);
    assertRefused(files -> files.list("to-outside", 3), KernelSandboxException.PATH_SYMBOLIC_LINK);

    List<FileEntry> entries = files.list(".", 10);

    assertThat(entries).extracting(FileEntry::path).containsExactly(
        "dangling", "dir", "dir/inner-link", "dir/sub", "dir/sub/own.txt", "relative-escape", "to-etc", "to-outside", "to-secret");
    assertThat(entries).filteredOn(entry -> entry.name().startsWith("to-") || entry.name().endsWith("-link"))
        .extracting(FileEntry::type).containsOnly(FileType.FILE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"../outside/secret.txt", "dir/../../outside/secret.txt", "..", "../outside", "/etc/passwd"})
  void dotDotAndAbsolutePathsAreRefusedForEveryOperation(String path) throws IOException {
    assertRefused(files -> files.read(path), KernelSandboxException.PATH_INVALID);
    assertRefused(files -> files.exists(path), KernelSandboxException.PATH_INVALID);
    assertRefused(files -> files.list(path), KernelSandboxException.PATH_INVALID);
    assertRefused(files -> files.create(path + "/new", "x"), KernelSandboxException.PATH_INVALID);
    assertRefused(files -> files.createDirectory(path + "/new"), KernelSandboxException.PATH_INVALID);
    assertRefused(files -> files.delete(path, true), KernelSandboxException.PATH_INVALID);

    assertThat(outside.resolve("secret.txt")).hasContent("secret");
    try (Stream<Path> entries = Files.list(outside); Stream<Path> besideWork = Files.list(temp)) {
      assertThat(entries).containsExactly(outside.resolve("secret.txt"));
      assertThat(besideWork).containsExactlyInAnyOrder(outside, work);
    }
  }

  @Test
  void anAbsolutePathToTheWorkDirectoryItselfIsRefusedToo() {
    assertRefused(files -> files.read(work.resolve("dir/sub/own.txt").toString()), KernelSandboxException.PATH_INVALID);
  }

  @Test
  void aNulCharacterIsRefused() {
    assertRefused(files -> files.create("name\0.txt", "x"), KernelSandboxException.PATH_INVALID);
  }

  @Test
  void existsAnswersForTheLinkItselfButRefusesToLookThroughIt() {
    assertThat(files.exists("to-etc")).isTrue();
    assertThat(files.exists("dangling")).isTrue();
    assertThat(files.exists("missing/deeper")).isFalse();
    assertThat(files.exists("dir/sub/own.txt/deeper")).isFalse();
    assertRefused(files -> files.exists("to-etc/passwd"), KernelSandboxException.PATH_SYMBOLIC_LINK);
  }

  @Test
  void filesAndParentDirectoriesAreCreatedInsideAndReadBack() {
    files.create("a/b/c.txt", "h\u00e9llo\n").createDirectory("a/empty");

    assertThat(work.resolve("a/b/c.txt")).hasContent("h\u00e9llo\n");
    assertThat(files.read("./a//b/c.txt")).isEqualTo("h\u00e9llo\n");
    assertThat(files.list("a", 2)).extracting(FileEntry::path).containsExactly("a/b", "a/b/c.txt", "a/empty");
  }

  @Test
  void aFileOperationOnTheWrongKindOfEntryIsRefusedWithItsCode() {
    assertRefused(files -> files.create("dir", "x"), KernelSandboxException.PATH_NOT_REGULAR_FILE);
    assertRefused(files -> files.read("dir"), KernelSandboxException.PATH_NOT_REGULAR_FILE);
    assertRefused(files -> files.create("dir/sub/own.txt/x", "x"), KernelSandboxException.PATH_NOT_DIRECTORY);
    assertRefused(files -> files.delete("dir/sub"), KernelSandboxException.DIRECTORY_NOT_EMPTY);
    assertRefused(files -> files.delete("."), KernelSandboxException.PATH_INVALID);
    assertRefused(files -> files.read("missing.txt"), KernelSandboxException.PATH_NOT_FOUND);
    assertThat(work.resolve("dir/sub/own.txt")).hasContent("own");
  }

  /**
   * A command swapping a directory of the work directory for a link to a directory beside it, and
   * back, as fast as it can, while the host creates directories and files below it: nothing ever
   * appears beside the work directory (a directory created by its path would, in the window after
   * its parent was checked).
   */
  @Test
  void swappingADirectoryForALinkWhileFilesAreCreatedNeverLeadsOutside() throws Exception {
    Path race = Files.createDirectory(work.resolve("race"));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger swaps = new AtomicInteger();
    Thread swapper = new Thread(() -> {
      // Each step may lose to the host (which recreates a missing "race"); the loop goes on.
      for (int n = 0; !stop.get(); n++) {
        try {
          Files.move(race, work.resolve("moved-" + n));
          Files.createSymbolicLink(race, outside);
          swaps.incrementAndGet();
          Files.delete(race);
        } catch (IOException e) {
          // Lost this round.
        }
      }
    });
    swapper.start();
    try {
      for (int i = 0; i < 1000; i++) {
        try {
          files.createDirectory("race/d" + i + "/e");
          files.create("race/f" + i + "/g.txt", "x");
        } catch (KernelSandboxException e) {
          assertThat(e.code()).as(e.getMessage()).isIn(
              KernelSandboxException.PATH_SYMBOLIC_LINK, KernelSandboxException.PATH_NOT_FOUND, KernelSandboxException.FILE_IO);
        }
      }
    } finally {
      stop.set(true);
      swapper.join();
    }

    assertThat(swaps.get()).as("links planted").isPositive();
    try (Stream<Path> entries = Files.list(outside)) {
      assertThat(entries).containsExactly(outside.resolve("secret.txt"));
    }
  }

  @Test
  void aFifoACommandLeftIsRefusedInsteadOfBlockingTheHost() throws Exception {
    Process mkfifo = new ProcessBuilder(HostPrograms.find("mkfifo").toString(), work.resolve("pipe").toString())
        .redirectErrorStream(true).start();
    assertThat(mkfifo.waitFor()).as(new String(mkfifo.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();

    assertRefused(files -> files.read("pipe"), KernelSandboxException.PATH_NOT_REGULAR_FILE);
    assertRefused(files -> files.create("pipe", "x"), KernelSandboxException.PATH_NOT_REGULAR_FILE);
    assertThat(files.list(".")).filteredOn(entry -> entry.name().equals("pipe")).extracting(FileEntry::type).containsExactly(FileType.FILE);
  }

  @Test
  void aTreeDeeperThanTheBoundIsRefusedInsteadOfExhaustingTheHost() throws IOException {
    Files.createDirectories(work.resolve("deep/" + "d/".repeat(300)));

    assertRefused(files -> files.list("deep", 1000), KernelSandboxException.FILE_IO);
    assertThat(files.list("deep", 256)).hasSize(256);
  }

  private void assertRefused(ThrowingConsumer<SandboxFiles> operation, String code) {
    assertThatThrownBy(() -> operation.accept(files))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> assertThat(e.code()).as(e.getMessage()).isEqualTo(code));
  }
}
