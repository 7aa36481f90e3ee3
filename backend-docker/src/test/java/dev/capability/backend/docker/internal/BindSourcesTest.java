package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which directories above a bind source let another party swap it; real files, real owners. */
class BindSourcesTest {
  private static final int SANDBOX = 65534;
  private static final int OTHER = 4242;

  @TempDir Path tmp;
  private Path parent;
  private Path source;
  private BindSources sources;

  @BeforeEach
  void tree() throws IOException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    parent = Files.createDirectory(tmp.resolve("parent"));
    source = Files.createDirectory(parent.resolve("source"));
    int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    int gid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:gid");
    sources = new BindSources(uid, gid, SANDBOX, SANDBOX);
  }

  private static void mode(Path path, String mode) throws IOException {
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
  }

  private void refused(String why) {
    assertThatThrownBy(() -> sources.requireUnswappable(source, "writable root"))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e ->
                assertThat(e.code())
                    .isEqualTo(LaunchFailedException.BIND_SOURCE_SWAPPABLE))
        .hasMessageContaining("writable root " + source + " cannot be bound: " + parent + " " + why);
  }

  @Test
  void aSourceUnderDirectoriesOfRootAndTheKernelIsAccepted() {
    assertThatCode(() -> sources.requireUnswappable(source, "writable root")).doesNotThrowAnyException();
  }

  @Test
  void aSourceItselfWritableByTheSandboxIsAcceptedSinceOnlyItsParentsMatter() throws IOException {
    mode(source, "rwxrwxrwx");
    Files.setAttribute(source, "unix:uid", SANDBOX);

    assertThatCode(() -> sources.requireUnswappable(source, "writable root")).doesNotThrowAnyException();
  }

  @Test
  void aParentOwnedByAnotherUidIsRefused() throws IOException {
    Files.setAttribute(parent, "unix:uid", OTHER);

    refused("is owned by uid " + OTHER);
  }

  @Test
  void aWorldWritableParentIsRefused() throws IOException {
    mode(parent, "rwxrwxrwx");

    refused("is writable by every user");
  }

  @Test
  void aParentWritableByTheSandboxGroupIsRefused() throws IOException {
    Files.setAttribute(parent, "unix:gid", SANDBOX);
    mode(parent, "rwxrwxr-x");

    refused("is writable by group " + SANDBOX);
  }

  @Test
  void aStickyWorldWritableParentIsAcceptedWhileTheKernelOwnsTheSource() throws IOException {
    Files.setAttribute(parent, "unix:mode", 01777);

    assertThatCode(() -> sources.requireUnswappable(source, "writable root")).doesNotThrowAnyException();
  }

  @Test
  void aStickyWorldWritableParentIsRefusedWhenTheSandboxOwnsTheSource() throws IOException {
    Files.setAttribute(parent, "unix:mode", 01777);
    Files.setAttribute(source, "unix:uid", SANDBOX);

    refused("is sticky but " + source + " is owned by uid " + SANDBOX);
  }
}
