package dev.capability.backend.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.docker.internal.DockerBackend;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.workspace.RepositoryWorkspace;
import dev.capability.workspace.WorkspaceLimits;
import dev.capability.workspace.WorkspaceOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run on the remote daemon brings back, through the kernel's workspace: writes in a
 * writable root come back, writes elsewhere do not, a hostile return (a symlink out of its root, a
 * fifo) is refused by the kernel with nothing applied, and the bounds on bytes in and out hold.
 * The commands are {@code sh -c} payloads inside the container.
 */
class RemoteWorkspaceTest {
  private static ExecutionBackend backend;

  private static synchronized ExecutionBackend backend() {
    if (backend == null) {
      backend = DockerBackend.create(SecondDockerDaemon.get().config());
    }
    return backend;
  }

  @AfterAll
  static synchronized void close() {
    if (backend != null) {
      backend.close();
      backend = null;
    }
  }

  @TempDir Path temporary;

  private Path layOut() throws IOException {
    Path repository = Files.createDirectories(temporary.resolve("repository"));
    Files.createDirectories(repository.resolve("out"));
    Files.createDirectories(repository.resolve("src"));
    Files.writeString(repository.resolve("src/Main.java"), "class Main {}\n");
    Files.writeString(repository.resolve("out/old.txt"), "old\n");
    return repository.toRealPath();
  }

  private static LaunchSpec spec(Path repository, RepositoryWorkspace workspace, String script) throws IOException {
    Path sh = Path.of("/bin/sh").toRealPath();
    return LaunchSpec.builder(
            new PinnedExecutable(sh, Sha256.hex(Files.readAllBytes(sh)), sh.toString(), PinnedExecutable.Pinning.PROC_FD))
        .arguments(List.of("-c", script))
        .environment(Map.of("PATH", "/usr/bin:/bin"))
        .workingDirectory(repository)
        .repository(repository)
        .writableRoots(List.of(repository.resolve("out")))
        .network(NetworkMode.NONE)
        .timeout(Duration.ofSeconds(60))
        .workspace(workspace)
        .build();
  }

  private static RepositoryWorkspace workspace(Path repository, WorkspaceLimits limits) {
    return RepositoryWorkspace.builder(repository, "remote-workspace-test")
        .writableRoots(List.of(repository.resolve("out")))
        .limits(limits)
        .build();
  }

  @Test
  void aWriteInAWritableRootComesBackAndAWriteElsewhereDoesNot() throws IOException {
    Path repository = layOut();
    RepositoryWorkspace workspace = workspace(repository, WorkspaceLimits.DEFAULT);

    LaunchResult result =
        backend()
            .launch(
                spec(
                    repository,
                    workspace,
                    "cat src/Main.java; echo new > out/new.txt; rm out/old.txt;"
                        + " echo changed > src/Main.java 2>/dev/null && echo wrote-src;"
                        + " echo x > src/planted 2>/dev/null && echo planted; exit 0"));

    assertThat(result.exitCode()).hasValue(0);
    assertThat(result.stdout().text()).contains("class Main {}").doesNotContain("wrote-src").doesNotContain("planted");
    assertThat(workspace.outcome().status()).isEqualTo(WorkspaceOutcome.Status.APPLIED);
    assertThat(repository.resolve("out/new.txt")).hasContent("new");
    assertThat(repository.resolve("out/old.txt")).doesNotExist();
    assertThat(repository.resolve("src/Main.java")).hasContent("class Main {}");
    assertThat(repository.resolve("src/planted")).doesNotExist();
  }

  @Test
  void aNestedGitDirectoryInAWritableRootStaysOutOfWhatComesBack() throws IOException {
    Path repository = layOut();
    Files.createDirectories(repository.resolve("out/sub/.git/hooks"));
    Files.writeString(repository.resolve("out/sub/.git/config"), "[core]\n");
    RepositoryWorkspace workspace = workspace(repository, WorkspaceLimits.DEFAULT);

    LaunchResult result =
        backend()
            .launch(
                spec(
                    repository,
                    workspace,
                    "echo new > out/new.txt;"
                        + " echo hook > out/sub/.git/hooks/post-checkout 2>/dev/null && echo hooked; exit 0"));

    assertThat(result.exitCode()).hasValue(0);
    assertThat(result.stdout().text()).doesNotContain("hooked");
    // The nested .git comes back from the daemon like any directory; were it handed over, the
    // kernel would refuse the whole archive.
    assertThat(workspace.outcome().status()).isEqualTo(WorkspaceOutcome.Status.APPLIED);
    assertThat(repository.resolve("out/new.txt")).hasContent("new");
    assertThat(repository.resolve("out/sub/.git/config")).hasContent("[core]");
    assertThat(repository.resolve("out/sub/.git/hooks/post-checkout")).doesNotExist();
  }

  @Test
  void theRepositoryItselfAsAWritableRootIsRefused() throws IOException {
    Path repository = layOut();
    RepositoryWorkspace workspace =
        RepositoryWorkspace.builder(repository, "remote-workspace-test").writableRoots(List.of(repository)).build();
    LaunchSpec spec =
        spec(repository, workspace, "echo top > top.txt").toBuilder().writableRoots(List.of(repository)).build();

    assertThatThrownBy(() -> backend().launch(spec))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("cannot make the repository");
    assertThat(repository.resolve("top.txt")).doesNotExist();
  }

  @Test
  void aHostileReturnWithALinkOutOfItsRootAndAFifoIsRefusedWithNothingApplied() throws IOException {
    Path repository = layOut();
    RepositoryWorkspace workspace = workspace(repository, WorkspaceLimits.DEFAULT);

    LaunchResult result =
        backend()
            .launch(
                spec(
                    repository,
                    workspace,
                    "echo new > out/new.txt; ln -s /etc/passwd out/passwd; ln -s ../src out/src;"
                        + " mkfifo out/pipe; ls -l out"));

    assertThat(result.exitCode()).hasValue(0);
    assertThat(result.stdout().text()).contains("passwd").contains("pipe");
    assertThat(workspace.outcome().status()).isEqualTo(WorkspaceOutcome.Status.REFUSED);
    assertThat(repository.resolve("out/new.txt")).doesNotExist();
    assertThat(repository.resolve("out/old.txt")).hasContent("old");
    assertThat(Files.exists(repository.resolve("out/passwd"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(Files.exists(repository.resolve("out/pipe"), LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  @Test
  void aTimedOutRunStillBringsBackWhatItWrote() throws IOException {
    Path repository = layOut();
    RepositoryWorkspace workspace = workspace(repository, WorkspaceLimits.DEFAULT);
    LaunchSpec spec =
        spec(repository, workspace, "echo before > out/before.txt; exec sleep 600").toBuilder()
            .timeout(Duration.ofSeconds(3))
            .terminationGrace(Duration.ofMillis(200))
            .build();

    LaunchResult result = backend().launch(spec);

    assertThat(result.timedOut()).isTrue();
    assertThat(workspace.outcome().status()).isEqualTo(WorkspaceOutcome.Status.APPLIED);
    assertThat(repository.resolve("out/before.txt")).hasContent("before");
  }

  @Test
  void anInputOverItsBoundFailsTheLaunch() throws IOException {
    Path repository = layOut();
    Files.write(repository.resolve("src/big.bin"), new byte[64 * 1024]);
    RepositoryWorkspace workspace = workspace(repository, new WorkspaceLimits(16 * 1024, 1L << 20, 1000, 4096));

    assertThatThrownBy(() -> backend().launch(spec(repository, workspace, "exit 0")))
        .isInstanceOf(LaunchFailedException.class);
    assertThat(workspace.outcome().status()).isEqualTo(WorkspaceOutcome.Status.NOT_RETURNED);
  }

  @Test
  void aReturnOverItsBoundFailsTheLaunchWithNothingApplied() throws IOException {
    Path repository = layOut();
    RepositoryWorkspace workspace = workspace(repository, new WorkspaceLimits(1L << 20, 32 * 1024, 1000, 4096));

    assertThatThrownBy(
            () -> backend()
                .launch(spec(repository, workspace, "head -c 200000 /dev/zero > out/big.bin")))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("32768 bytes");
    assertThat(repository.resolve("out/big.bin")).doesNotExist();
    assertThat(repository.resolve("out/old.txt")).hasContent("old");
  }
}
