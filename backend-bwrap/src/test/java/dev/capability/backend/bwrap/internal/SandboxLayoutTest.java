package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.support.NestedGitEntries;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The filesystem plan, checked without starting a sandbox. */
class SandboxLayoutTest {
  @TempDir Path tmp;

  private Path repo;
  private Path out;
  private SandboxLayout.RunFiles files;
  private final SandboxIdentity identity = Sandboxes.identity();
  private final SandboxLayout layout = new SandboxLayout(BwrapSettings.defaults(), identity, true);

  @BeforeEach
  void directories() {
    Sandboxes.openDirectory(tmp);
    repo = Sandboxes.openDirectory(tmp.resolve("repo"));
    out = Sandboxes.writableBy(repo.resolve("out"), identity);
    Path run = Sandboxes.openDirectory(tmp.resolve("run"));
    files =
        new SandboxLayout.RunFiles(
            run.resolve("exe"), run.resolve("passwd"), run.resolve("group"), run.resolve("mask"));
  }

  private LaunchSpec.Builder spec() {
    return Sandboxes.spec(Sandboxes.system("true"), repo);
  }

  private static int indexOf(List<MountOp> mounts, MountOp.Kind kind, Path destination) {
    for (int i = 0; i < mounts.size(); i++) {
      if (mounts.get(i).kind() == kind && mounts.get(i).destination().equals(destination)) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void bindsTheEgressRelayReadOnlyAfterEverythingAndBeforeTheReadOnlyRemounts() {
    SandboxLayout.Plan plan = layout.plan(spec().writableRoots(List.of(out)).build(), files);
    Path relay = tmp.resolve("egress-relay");

    SandboxLayout.Plan filtered = SandboxLayout.withEgressRelay(plan, relay);

    List<MountOp> mounts = filtered.mounts();
    assertThat(mounts).hasSize(plan.mounts().size() + 1);
    assertThat(mounts.get(mounts.size() - 3))
        .isEqualTo(MountOp.readOnlyBind(relay, Path.of("/run/capability-egress/egress-relay")));
    assertThat(mounts.subList(mounts.size() - 2, mounts.size()))
        .containsExactly(
            MountOp.remountReadOnly(SandboxLayout.DEV), MountOp.remountReadOnly(SandboxLayout.ROOT));
    assertThat(filtered.pinned()).isEqualTo(plan.pinned());
  }

  @Test
  void buildsTheAllowlistInOrder() {
    List<MountOp> mounts = layout.plan(spec().writableRoots(List.of(out)).build(), files).mounts();

    int usr = indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, Path.of("/usr"));
    int tmpfs = indexOf(mounts, MountOp.Kind.TMPFS, Path.of("/tmp"));
    int repository = indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, repo);
    int writable = indexOf(mounts, MountOp.Kind.BIND, out);
    int executable = indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, Sandboxes.system("true").path());
    assertThat(List.of(usr, tmpfs, repository, writable, executable)).isSorted().doesNotContain(-1);
    assertThat(mounts.get(tmpfs).sizeBytes()).isEqualTo(OptionalLong.of(64L << 20));
    assertThat(mounts.get(executable).source()).isEqualTo(files.executable().toString());
    assertThat(mounts.subList(mounts.size() - 2, mounts.size()))
        .containsExactly(
            MountOp.remountReadOnly(Path.of("/dev")), MountOp.remountReadOnly(Path.of("/")));
    assertThat(mounts)
        .as("never the host root, /run, /sys, /var or a home")
        .noneMatch(
            m -> m.destination().equals(Path.of("/")) && m.kind() != MountOp.Kind.REMOUNT_READ_ONLY)
        .noneMatch(
            m ->
                m.destination().startsWith("/run")
                    || m.destination().startsWith("/sys")
                    || m.destination().startsWith("/var")
                    || m.destination().startsWith("/home")
                    || m.destination().startsWith("/root"));
    assertThat(indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, Path.of("/etc/passwd")))
        .isNotNegative();
  }

  @Test
  void recreatesSystemSymlinksInsteadOfBindingThem() throws IOException {
    Path bin = Path.of("/bin");
    List<MountOp> mounts = layout.plan(spec().build(), files).mounts();

    if (Files.isSymbolicLink(bin)) {
      assertThat(mounts).contains(MountOp.symlink(Files.readSymbolicLink(bin).toString(), bin));
    } else {
      assertThat(mounts).contains(MountOp.readOnlyBind(bin, bin));
    }
  }

  @Test
  void rebindsExistingProtectedPathsAfterTheWritableRoots() throws IOException {
    Path git = Files.createDirectories(out.resolve(".git"));
    Path outsideWritable = Files.createDirectories(repo.resolve("docs"));
    List<MountOp> mounts =
        layout
            .plan(
                spec()
                    .writableRoots(List.of(out))
                    .protectedPaths(List.of(git, outsideWritable))
                    .build(),
                files)
            .mounts();

    assertThat(indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, git))
        .isGreaterThan(indexOf(mounts, MountOp.Kind.BIND, out));
    assertThat(indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, outsideWritable))
        .as("already read-only: no extra mount")
        .isEqualTo(-1);
  }

  @Test
  void masksAnAbsentProtectedPathAtItsFirstMissingComponent() {
    Path hook = out.resolve(".git").resolve("hooks").resolve("pre-commit");
    SandboxLayout.Plan plan =
        layout.plan(
            spec().writableRoots(List.of(out)).protectedPaths(List.of(hook)).build(), files);

    assertThat(plan.placeholders().paths()).containsExactly(out.resolve(".git"));
    assertThat(plan.mounts()).contains(MountOp.readOnlyBind(files.mask(), out.resolve(".git")));
  }

  @Test
  void masksAnotherRunsPlaceholderAsAbsentRatherThanAsAnExistingPath() {
    Path github = out.resolve(".github");
    Path workflow = github.resolve("workflows").resolve("ci.yml");
    SandboxLayout.Plan first =
        layout.plan(
            spec().writableRoots(List.of(out)).protectedPaths(List.of(workflow)).build(), files);
    PlaceholderJournal.Claim claim =
        first.placeholders().journal().claim(first.placeholders().paths());
    try {
      assertThat(github).isEmptyDirectory();

      SandboxLayout.Plan second =
          layout.plan(
              spec().writableRoots(List.of(out)).protectedPaths(List.of(workflow)).build(), files);

      assertThat(second.placeholders().paths())
          .as("claimed as well, so it stays while this run masks it")
          .containsExactly(github);
      assertThat(second.mounts())
          .contains(MountOp.readOnlyBind(files.mask(), github))
          .doesNotContain(MountOp.readOnlyBind(github, github));
    } finally {
      claim.close();
    }
    assertThat(github).doesNotExist();
  }

  @Test
  void aProtectedAncestorOfAWritableRootCoversIt() throws IOException {
    Path inner = Sandboxes.writableBy(out.resolve("cache"), identity);
    List<MountOp> mounts =
        layout
            .plan(spec().writableRoots(List.of(inner)).protectedPaths(List.of(out)).build(), files)
            .mounts();

    assertThat(indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, out))
        .isGreaterThan(indexOf(mounts, MountOp.Kind.BIND, inner));
  }

  @Test
  void aProtectedPathOutsideTheRepositoryThatNoWritableRootExposesNeedsNoMount() {
    // A linked worktree's git directory: outside the repository, and read-only like everything there.
    Path gitDirElsewhere = tmp.resolve("main/.git/worktrees/wt");

    List<MountOp> mounts =
        layout.plan(spec().writableRoots(List.of(out)).protectedPaths(List.of(gitDirElsewhere)).build(), files).mounts();

    assertThat(mounts).noneMatch(mount -> mount.toString().contains(gitDirElsewhere.toString()));
  }

  @Test
  void refusesProtectedPathsOutsideTheRepositoryUnderAWritableRootOrWithoutOne() {
    Path outsideRoot = Sandboxes.writableBy(tmp.resolve("scratch"), identity);
    assertThatThrownBy(
            () ->
                layout.plan(
                    spec()
                        .writableRoots(List.of(out, outsideRoot))
                        .protectedPaths(List.of(outsideRoot.resolve("x")))
                        .build(),
                    files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("outside the repository");
    assertThatThrownBy(
            () ->
                layout.plan(
                    spec()
                        .repository(null)
                        .writableRoots(List.of(out))
                        .protectedPaths(List.of(out.resolve("x")))
                        .build(),
                    files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("names no repository");
  }

  @Test
  void bindsAWorkingDirectoryOutsideEverythingReadOnly() {
    Path elsewhere = Sandboxes.openDirectory(tmp.resolve("elsewhere"));
    List<MountOp> outside = layout.plan(spec().workingDirectory(elsewhere).build(), files).mounts();
    List<MountOp> inside =
        layout
            .plan(spec().workingDirectory(out).writableRoots(List.of(out)).build(), files)
            .mounts();

    assertThat(outside).contains(MountOp.readOnlyBind(elsewhere, elsewhere));
    assertThat(inside).noneMatch(m -> m.kind() != MountOp.Kind.BIND && m.destination().equals(out));
  }

  @Test
  void refusesPathsThatWouldExposeTheHost() {
    List<Path> refused =
        List.of(
            Path.of("/"),
            Path.of("/tmp"),
            Path.of("/etc"),
            Path.of("/usr"),
            Path.of("/home"),
            Path.of("/root"),
            Path.of("/run"),
            Path.of("/run/user/1000"),
            Path.of("/var/run/x"),
            Path.of("/proc/self"),
            Path.of("/sys/fs"),
            Path.of("/dev/shm"),
            Path.of("/usr/local/lib"),
            Path.of("/etc/ssl"));
    for (Path path : refused) {
      assertThatThrownBy(() -> layout.plan(spec().writableRoots(List.of(path)).build(), files))
          .as("writable root %s", path)
          .isInstanceOf(LaunchFailedException.class)
          .hasMessageContaining(path.toString());
    }
    assertThatThrownBy(
            () ->
                layout.plan(
                    spec().writableRoots(List.of(repo.resolve("../repo/out"))).build(), files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("without . or ..");
    assertThatThrownBy(
            () ->
                layout.plan(spec().writableRoots(List.of(repo.resolve("missing"))).build(), files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("does not exist");
  }

  @Test
  void refusesBindSourcesThroughSymlinks() throws IOException {
    Path link = Files.createSymbolicLink(repo.resolve("link"), out);

    assertThatThrownBy(() -> layout.plan(spec().writableRoots(List.of(link)).build(), files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("is or passes through the symlink " + link);
    assertThatThrownBy(
            () -> layout.plan(spec().repository(link).workingDirectory(link).build(), files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("symlink");
  }

  @Test
  void leavesTmpfsUnsizedWhenBwrapCannotSizeIt() {
    SandboxLayout unsized = new SandboxLayout(BwrapSettings.defaults(), identity, false);
    List<MountOp> mounts = unsized.plan(spec().build(), files).mounts();

    assertThat(mounts).contains(MountOp.tmpfs(Path.of("/tmp"), OptionalLong.empty()));
  }

  @Test
  void rebindsEveryDotGitBelowAWritableRootAndTheGitDirectoryAGitFileLeadsToThere()
      throws IOException {
    Path nested = Files.createDirectories(out.resolve("a/b/nested/.git"));
    Path planted = Files.createDirectories(out.resolve("elsewhere/gitdir"));
    Files.createDirectories(out.resolve("sub"));
    Path gitFile =
        Files.writeString(out.resolve("sub/.git"), "gitdir: ../elsewhere/gitdir\n");
    Path common = Files.createDirectories(out.resolve("common"));
    Files.writeString(planted.resolve("commondir"), "../../common\n");
    Path outsideGitDir = Files.createDirectories(repo.resolve("outside/.git"));
    Files.createDirectories(out.resolve("worktree"));
    Files.writeString(out.resolve("worktree/.git"), "gitdir: " + outsideGitDir + "\n");

    List<MountOp> mounts = layout.plan(spec().writableRoots(List.of(out)).build(), files).mounts();

    int writable = indexOf(mounts, MountOp.Kind.BIND, out);
    for (Path held : List.of(nested, gitFile, planted, common, out.resolve("worktree/.git"))) {
      assertThat(indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, held)).as(held.toString()).isGreaterThan(writable);
    }
    assertThat(indexOf(mounts, MountOp.Kind.READ_ONLY_BIND, outsideGitDir))
        .as("a git directory no writable root exposes is read-only already")
        .isEqualTo(-1);
  }

  @Test
  void aDotGitInsideAProtectedPathIsNotBoundTwice() throws IOException {
    Path git = Files.createDirectories(out.resolve(".git"));
    Files.createDirectories(git.resolve("modules/sub/.git"));

    List<MountOp> mounts =
        layout
            .plan(spec().writableRoots(List.of(out)).protectedPaths(List.of(git)).build(), files)
            .mounts();

    assertThat(mounts).filteredOn(m -> m.destination().startsWith(git)).containsExactly(MountOp.readOnlyBind(git, git));
  }

  @Test
  void refusesADotGitItCannotHoldOrASearchBeyondItsBounds() throws IOException {
    Path link = Files.createSymbolicLink(out.resolve(".git"), repo);
    assertThatThrownBy(() -> layout.plan(spec().writableRoots(List.of(out)).build(), files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining(link + " is a symbolic link");
    Files.delete(link);

    Files.createDirectories(out.resolve("d1/d2/d3"));
    Files.createDirectories(out.resolve("r1/.git"));
    Files.createDirectories(out.resolve("r2/.git"));
    assertThatThrownBy(() -> bounded(1000, 2, 100).plan(spec().writableRoots(List.of(out)).build(), files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("2 levels below");
    assertThatThrownBy(() -> bounded(3, 100, 100).plan(spec().writableRoots(List.of(out)).build(), files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("more than 3 directories");
    assertThatThrownBy(() -> bounded(1000, 100, 1).plan(spec().writableRoots(List.of(out)).build(), files))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("more than 1 .git entries");
    assertThat(bounded(1000, 100, 2).plan(spec().writableRoots(List.of(out)).build(), files).mounts())
        .contains(
            MountOp.readOnlyBind(out.resolve("r1/.git"), out.resolve("r1/.git")),
            MountOp.readOnlyBind(out.resolve("r2/.git"), out.resolve("r2/.git")));
  }

  private SandboxLayout bounded(int directories, int depth, int entries) {
    return new SandboxLayout(
        BwrapSettings.defaults(), identity, true, new NestedGitEntries.Bounds(directories, depth, entries));
  }
}
