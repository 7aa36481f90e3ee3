package dev.capability.kernel.core.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.kernel.api.Decision;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which pinned executables the kernel refuses for who could have written them or where else they are linked. */
class ExecutableTrustTest {
  /** A uid no test file is owned by, to stand for the kernel's user when a test needs its own files to be another user's. */
  private static final int SOMEONE_ELSE = 4242;
  /** The owner a root test gives a file so that neither root nor {@link #SOMEONE_ELSE} owns it. */
  private static final int NOBODY = 65534;

  @TempDir Path tmp;

  private final int self = uid(Path.of("/proc/self"));
  private final ExecutableTrust trust = new ExecutableTrust(() -> self);

  @Test
  void aHardLinkToARepositoryFileIsRefusedWhereverItIsFound() throws IOException {
    Path repository = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Path planted = script(Files.createDirectories(repository.resolve("scripts")).resolve("build"));
    Path link = Files.createLink(Files.createDirectories(tmp.resolve("bin")).resolve("build"), planted);

    Optional<Decision> refusal = trust.refusal(link, link, Optional.of(repository), false);

    assertThat(refusal).hasValueSatisfying(d -> {
      assertThat(d.code()).isEqualTo("REPOSITORY_EXECUTABLE_LINK");
      assertThat(d.layer()).isEqualTo("builtin");
      assertThat(d.rule()).isEqualTo("allowRepositoryExecutables");
      assertThat(d.message()).contains("scripts/build");
    });
  }

  @Test
  void aHardLinkIntoTheGitDirectoryCountsToo() throws IOException {
    Path repository = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Path hook = script(Files.createDirectories(repository.resolve(".git/hooks")).resolve("pre-commit"));
    Path link = Files.createLink(Files.createDirectories(tmp.resolve("bin")).resolve("tool"), hook);

    assertThat(trust.refusal(link, link, Optional.of(repository), false))
        .hasValueSatisfying(d -> assertThat(d.message()).contains(".git/hooks/pre-commit"));
  }

  @Test
  void aHardLinkIsAllowedWhenThePolicyAllowsRepositoryExecutablesOrTheOtherNameIsOutside() throws IOException {
    Path repository = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Path inside = script(repository.resolve("build"));
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path linkedIn = Files.createLink(bin.resolve("build"), inside);
    Path outside = script(Files.createDirectories(tmp.resolve("elsewhere")).resolve("tool"));
    Path linkedOut = Files.createLink(bin.resolve("tool"), outside);

    assertThat(trust.refusal(linkedIn, linkedIn, Optional.of(repository), true)).isEmpty();
    assertThat(trust.refusal(linkedOut, linkedOut, Optional.of(repository), false)).isEmpty();
    assertThat(trust.refusal(linkedIn, linkedIn, Optional.empty(), false)).as("no repository, nothing to be linked into").isEmpty();
  }

  @Test
  void aRepositoryThatCannotBeSearchedRefusesAMultiplyLinkedExecutable() throws IOException {
    assumeTrue(self != 0, "root reads every directory whatever its mode; this test runs as uid " + self);
    Path repository = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Path closed = Files.createDirectories(repository.resolve("closed"));
    Path tool = script(Files.createDirectories(tmp.resolve("bin")).resolve("tool"));
    Files.createLink(tmp.resolve("tool-again"), tool);
    Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("---------"));
    try {
      assertThat(trust.refusal(tool, tool, Optional.of(repository), false))
          .hasValueSatisfying(d -> assertThat(d.code()).isEqualTo("REPOSITORY_EXECUTABLE_LINK"));
    } finally {
      Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void aWorldWritableExecutableIsRefusedWhoeverOwnsIt() throws IOException {
    Path tool = script(Files.createDirectories(tmp.resolve("bin")).resolve("tool"));
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xrwx"));

    assertThat(trust.refusal(tool, tool, Optional.empty(), false)).hasValueSatisfying(d -> {
      assertThat(d.code()).isEqualTo("EXECUTABLE_WRITABLE_BY_OTHERS");
      assertThat(d.message()).contains("0757");
    });
  }

  @Test
  void anotherUsersFileBelowAWorldWritableDirectoryIsRefused() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("shared"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path tool = ownedByAnother(script(dir.resolve("tool")));
    ExecutableTrust otherKernel = new ExecutableTrust(() -> SOMEONE_ELSE);

    assertThat(otherKernel.refusal(tool, tool, Optional.empty(), false)).hasValueSatisfying(d -> {
      assertThat(d.code()).isEqualTo("EXECUTABLE_WRITABLE_BY_OTHERS");
      assertThat(d.message()).contains("uid " + uid(tool)).contains(dir.toString()).contains("0777");
    });
    if (self != 0) {
      assertThat(trust.refusal(tool, tool, Optional.empty(), false)).as("the kernel's own file there").isEmpty();
    }
  }

  @Test
  void aStickyBitDoesNotMakeAnotherUsersFileTrusted() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("sticky"));
    Files.setAttribute(dir, "unix:mode", 01777);
    Path tool = ownedByAnother(script(dir.resolve("tool")));

    assertThat(new ExecutableTrust(() -> SOMEONE_ELSE).refusal(tool, tool, Optional.empty(), false))
        .hasValueSatisfying(d -> assertThat(d.message()).contains("01777"));
  }

  @Test
  void anotherUsersGroupWritableFileIsRefused() throws IOException {
    Path tool = script(Files.createDirectories(tmp.resolve("bin")).resolve("tool"));
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxrwxr-x"));
    assertThat(trust.refusal(tool, tool, Optional.empty(), false)).as("the kernel's own group-writable file").isEmpty();

    ownedByAnother(tool);
    assertThat(new ExecutableTrust(() -> SOMEONE_ELSE).refusal(tool, tool, Optional.empty(), false))
        .hasValueSatisfying(d -> assertThat(d.message()).contains("group can rewrite"));
  }

  @Test
  void anotherUsersFileInDirectoriesOnlyTheirOwnersCanWriteIsAllowed() throws IOException {
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("user.dir"), "target"), "trust-");
    try {
      Path tool = ownedByAnother(script(dir.resolve("tool")));
      for (Path up = dir; up != null; up = up.getParent()) {
        int mode = (Integer) Files.getAttribute(up, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        assumeTrue((mode & 0022) == 0, up + " is group- or world-writable on this machine, so no directory below it is safe");
      }

      assertThat(new ExecutableTrust(() -> SOMEONE_ELSE).refusal(tool, tool, Optional.empty(), false)).isEmpty();
    } finally {
      try (var files = Files.walk(dir)) {
        for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /**
   * Makes {@code file} owned by neither root nor {@link #SOMEONE_ELSE}: as root it is given to
   * {@link #NOBODY}; otherwise it is this process's, which a trust built for {@link #SOMEONE_ELSE}
   * does not trust either.
   */
  private Path ownedByAnother(Path file) throws IOException {
    if (self == 0) {
      Files.setAttribute(file, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
    }
    return file;
  }

  private static Path script(Path file) throws IOException {
    Files.writeString(file, "#!/bin/sh\necho planted\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file.toRealPath();
  }

  private static int uid(Path path) {
    try {
      return (Integer) Files.getAttribute(path, "unix:uid");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
