package dev.capability.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.ShippedWorkspace.Owner;
import dev.capability.testing.HostPrograms;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The input archive fails the launch, naming the path, instead of shipping what the run did not authorize or attest. */
class InputArchiveTest {
  private static final Owner ROOT = new Owner(0, 0);
  private static final Owner USER = new Owner(1000, 1000);

  @TempDir Path repository;

  @BeforeEach
  void files() {
    RepositoryTrees.write(repository.resolve("src/Main.java"), "class Main {}\n");
    RepositoryTrees.write(repository.resolve("README.md"), "readme\n");
  }

  private RepositoryWorkspace.Builder workspace() {
    return RepositoryWorkspace.builder(repository, "tree").writableRoots(List.of(Path.of("src")));
  }

  @Test
  void aRepositoryOverTheLimitFailsBeforeAnythingIsWritten() {
    RepositoryWorkspace workspace = workspace().limits(new WorkspaceLimits(2048, 1 << 20, 100, 4096)).build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    assertThatThrownBy(() -> workspace.writeInput(out, ROOT, USER))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("limit of 2048")
        .extracting(e -> ((LaunchFailedException) e).code()).isEqualTo(WorkspaceCodes.INPUT_TOO_LARGE);
    assertThat(out.size()).isZero();
    assertThat(workspace.outcome().inputBytes()).isZero();
  }

  @Test
  void aFifoInTheRepositoryFailsTheLaunchNamingIt() throws Exception {
    Process mkfifo = new ProcessBuilder(HostPrograms.find("mkfifo").toString(), repository.resolve("src/pipe").toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    RepositoryWorkspace workspace = workspace().build();

    assertThatThrownBy(() -> workspace.writeInput(new ByteArrayOutputStream(), ROOT, USER))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("src/pipe")
        .extracting(e -> ((LaunchFailedException) e).code()).isEqualTo(WorkspaceCodes.INPUT_SPECIAL_FILE);
  }

  @Test
  void aFileChangedSinceTheSnapshotFailsTheLaunch() throws IOException {
    Map<String, FileFingerprint> snapshot = Map.of(
        "src/Main.java", fingerprint(repository.resolve("src/Main.java"), Optional.empty()),
        "README.md", fingerprint(repository.resolve("README.md"), Optional.empty()));
    Files.writeString(repository.resolve("README.md"), "rewritten after the snapshot\n");
    RepositoryWorkspace workspace = workspace().expectedFiles(snapshot).build();

    assertThatThrownBy(() -> workspace.writeInput(new ByteArrayOutputStream(), ROOT, USER))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("README.md")
        .extracting(e -> ((LaunchFailedException) e).code()).isEqualTo(WorkspaceCodes.INPUT_CHANGED);
  }

  @Test
  void aFileWhoseHashedContentDiffersFailsTheLaunch() throws IOException {
    Map<String, FileFingerprint> snapshot = Map.of(
        "src/Main.java", fingerprint(repository.resolve("src/Main.java"), Optional.of("00".repeat(32))),
        "README.md", fingerprint(repository.resolve("README.md"), Optional.empty()));
    RepositoryWorkspace workspace = workspace().expectedFiles(snapshot).build();

    assertThatThrownBy(() -> workspace.writeInput(new ByteArrayOutputStream(), ROOT, USER))
        .hasMessageContaining("src/Main.java")
        .extracting(e -> ((LaunchFailedException) e).code()).isEqualTo(WorkspaceCodes.INPUT_CHANGED);
  }

  @Test
  void aFileAddedSinceTheSnapshotFailsTheLaunch() throws IOException {
    Map<String, FileFingerprint> snapshot = Map.of(
        "src/Main.java", fingerprint(repository.resolve("src/Main.java"), Optional.empty()),
        "README.md", fingerprint(repository.resolve("README.md"), Optional.empty()));
    RepositoryTrees.write(repository.resolve("src/Added.java"), "class Added {}\n");
    RepositoryWorkspace workspace = workspace().expectedFiles(snapshot).build();

    assertThatThrownBy(() -> workspace.writeInput(new ByteArrayOutputStream(), ROOT, USER))
        .hasMessageContaining("src/Added.java")
        .extracting(e -> ((LaunchFailedException) e).code()).isEqualTo(WorkspaceCodes.INPUT_CHANGED);
  }

  @Test
  void theSnapshotsFilesAreShippedAndCounted() throws IOException {
    Map<String, FileFingerprint> snapshot = Map.of(
        "src/Main.java", fingerprint(repository.resolve("src/Main.java"), Optional.empty()),
        "README.md", fingerprint(repository.resolve("README.md"), Optional.empty()));
    RepositoryWorkspace workspace = workspace().expectedFiles(snapshot).build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    long written = workspace.writeInput(out, ROOT, USER);

    assertThat(written).isEqualTo(out.size()).isEqualTo(workspace.outcome().inputBytes());
    assertThat(workspace.outcome().inputEntries()).isEqualTo(4); // ./, README.md, src/, src/Main.java
    assertThat(workspace.outcome().status()).isEqualTo(WorkspaceOutcome.Status.NOT_RETURNED);
    assertThat(workspace.outcome().code()).contains(WorkspaceCodes.NOT_RETURNED);
    assertThatThrownBy(() -> workspace.writeInput(new ByteArrayOutputStream(), ROOT, USER)).isInstanceOf(IllegalStateException.class);
  }

  private static FileFingerprint fingerprint(Path file, Optional<String> sha256) throws IOException {
    Map<String, Object> a = Files.readAttributes(file, "unix:ino,size,lastModifiedTime,ctime", LinkOption.NOFOLLOW_LINKS);
    return new FileFingerprint(((Number) a.get("size")).longValue(), ((Number) a.get("ino")).longValue(),
        ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS), ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS), sha256);
  }
}
