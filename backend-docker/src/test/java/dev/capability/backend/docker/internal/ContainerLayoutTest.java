package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.model.Mount;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerLayoutTest {
  private static final MountTable NO_SUBMOUNTS = new MountTable(List.of(Path.of("/")));

  @TempDir Path tmp;
  private Path repository;
  private Path copy;

  @BeforeEach
  void files() throws IOException {
    repository = Files.createDirectories(tmp.resolve("work/repository"));
    copy = Files.createFile(tmp.resolve("copy"));
  }

  private LaunchSpec.Builder spec() {
    return LaunchSpec.builder(
            new PinnedExecutable(
                Path.of("/usr/bin/true"), "0".repeat(64), "/usr/bin/true",
                PinnedExecutable.Pinning.PROC_FD))
        .workingDirectory(repository)
        .repository(repository);
  }

  private static ContainerLayout layout() {
    return new ContainerLayout(DockerSettings.defaults());
  }

  private static Mount at(List<Mount> mounts, Path target) {
    return mounts.stream()
        .filter(m -> target.toString().equals(m.getTarget()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no mount at " + target + " in " + mounts));
  }

  @Test
  void filteredNetworkBindsTheRelayAndTheSocketReadOnlyAndOnlyASocket() throws IOException {
    Path socketPath = tmp.resolve("proxy.sock");
    try (ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      socket.bind(UnixDomainSocketAddress.of(socketPath));

      List<Mount> mounts = layout().egressMounts(socketPath, copy);

      assertThat(at(mounts, Path.of("/run/capability-egress/egress-relay")).getSource())
          .isEqualTo(copy.toString());
      assertThat(at(mounts, Path.of("/run/capability-egress/proxy.sock")).getSource())
          .isEqualTo(socketPath.toString());
      assertThat(mounts).allSatisfy(mount -> assertThat(mount.getReadOnly()).isTrue());
      Path link = Files.createSymbolicLink(tmp.resolve("link.sock"), socketPath);
      for (Path notASocket : List.of(copy, link, tmp.resolve("missing.sock"))) {
        assertThatThrownBy(() -> layout().egressMounts(notASocket, copy))
            .as("%s", notASocket)
            .isInstanceOf(LaunchFailedException.class)
            .hasMessageContaining(notASocket.toString());
      }
    }
  }

  @Test
  void bindsTheRepositoryReadOnlyWritableRootsWritableAndTheExecutableCopyReadOnly()
      throws IOException {
    Path writable = Files.createDirectory(repository.resolve("writable"));

    List<Mount> mounts =
        layout().plan(spec().writableRoots(List.of(writable)).build(), copy, NO_SUBMOUNTS);

    assertThat(at(mounts, repository).getReadOnly()).isTrue();
    assertThat(at(mounts, writable).getReadOnly()).isFalse();
    Mount executable = at(mounts, Path.of("/usr/bin/true"));
    assertThat(executable.getSource()).isEqualTo(copy.toString());
    assertThat(executable.getReadOnly()).isTrue();
    assertThat(at(mounts, Path.of("/usr")).getReadOnly()).isTrue();
    assertThat(mounts)
        .allSatisfy(
            m ->
                assertThat(m.getSource())
                    .doesNotStartWith("/run")
                    .doesNotStartWith("/var/run")
                    .doesNotStartWith("/proc"));
  }

  @Test
  void bindsEveryNestedGitEntryBelowAWritableRootReadOnly() throws IOException {
    Path writable = Files.createDirectory(repository.resolve("writable"));
    Path nested = Files.createDirectories(writable.resolve("sub/.git/hooks")).getParent();
    Path worktreeGitDir = Files.createDirectories(writable.resolve("gitdirs/tree"));
    Path gitFile = Files.createDirectories(writable.resolve("tree")).resolve(".git");
    Files.writeString(gitFile, "gitdir: " + worktreeGitDir + "\n");

    List<Mount> mounts =
        layout().plan(spec().writableRoots(List.of(writable)).build(), copy, NO_SUBMOUNTS);

    for (Path held : List.of(nested, gitFile, worktreeGitDir)) {
      assertThat(at(mounts, held).getSource()).isEqualTo(held.toString());
      assertThat(at(mounts, held).getReadOnly()).as("%s", held).isTrue();
    }
    assertThat(mounts.indexOf(at(mounts, nested)))
        .as("a nested .git is bound after the writable root it lies in")
        .isGreaterThan(mounts.indexOf(at(mounts, writable)));
  }

  @Test
  void refusesANestedGitThatIsASymlink() throws IOException {
    Path writable = Files.createDirectory(repository.resolve("writable"));
    Files.createSymbolicLink(
        Files.createDirectory(writable.resolve("sub")).resolve(".git"), Path.of("/etc"));

    assertThatThrownBy(
            () ->
                layout()
                    .plan(spec().writableRoots(List.of(writable)).build(), copy, NO_SUBMOUNTS))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("symbolic link");
  }

  @Test
  void refusesASymlinkedRepository() throws IOException {
    Path link = Files.createSymbolicLink(tmp.resolve("link"), repository);

    assertThatThrownBy(
            () -> layout().plan(spec().repository(link).workingDirectory(link).build(), copy, NO_SUBMOUNTS))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("symlink");
  }

  @Test
  void refusesASourceWithAFileSystemMountedBelowIt() {
    MountTable submount = new MountTable(List.of(Path.of("/"), repository.resolve("cache")));

    assertThatThrownBy(() -> layout().plan(spec().build(), copy, submount))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("mounted below");
  }

  @Test
  void refusesAWritableRootInASystemDirectoryAndTheDockerSocketDirectory() {
    assertThatThrownBy(
            () ->
                layout()
                    .plan(spec().writableRoots(List.of(Path.of("/usr/local"))).build(), copy, NO_SUBMOUNTS))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("/usr");
    assertThatThrownBy(
            () ->
                layout()
                    .plan(spec().repository(Path.of("/var/run")).build(), copy, NO_SUBMOUNTS))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("/var/run");
  }

  @Test
  void neverBindsOverTheImagesEntrypointTools() {
    LaunchSpec overInit =
        LaunchSpec.builder(
                new PinnedExecutable(
                    Path.of("/opt/capability/bin/tini"), "0".repeat(64), "/x",
                    PinnedExecutable.Pinning.PROC_FD))
            .workingDirectory(repository)
            .repository(repository)
            .build();

    assertThatThrownBy(() -> layout().plan(overInit, copy, NO_SUBMOUNTS))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("/opt/capability");
    assertThatThrownBy(
            () ->
                layout()
                    .plan(
                        spec().repository(Path.of("/opt/capability")).build(), copy, NO_SUBMOUNTS))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("/opt/capability");
  }

  @Test
  void refusesAConfiguredSystemPathThatWouldShowHostSockets() {
    ContainerLayout layout =
        new ContainerLayout(
            DockerSettings.from(new BackendConfig(Map.of("docker.system-paths", "/usr,/run"))));

    assertThatThrownBy(() -> layout.plan(spec().build(), copy, NO_SUBMOUNTS))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("/run");
  }

  @Test
  void refusesAnAbsentProtectedPathUnderAWritableRoot() throws IOException {
    Path writable = Files.createDirectory(repository.resolve("writable"));

    assertThatThrownBy(
            () ->
                layout()
                    .plan(
                        spec()
                            .writableRoots(List.of(writable))
                            .protectedPaths(List.of(writable.resolve(".git/hooks")))
                            .build(),
                        copy,
                        NO_SUBMOUNTS))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("does not exist under a writable root");
  }

  @Test
  void rebindsAnExistingProtectedPathReadOnly() throws IOException {
    Path writable = Files.createDirectory(repository.resolve("writable"));
    Path hooks = Files.createDirectories(writable.resolve(".git/hooks"));

    List<Mount> mounts =
        layout()
            .plan(
                spec().writableRoots(List.of(writable)).protectedPaths(List.of(hooks)).build(),
                copy,
                NO_SUBMOUNTS);

    assertThat(at(mounts, hooks).getReadOnly()).isTrue();
  }
}
