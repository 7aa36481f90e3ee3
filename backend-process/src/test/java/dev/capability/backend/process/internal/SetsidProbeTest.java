package dev.capability.backend.process.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SetsidProbeTest {
  @TempDir Path dir;

  @Test
  void prefersPosixSpawnSessionsWhichNeedNoSetsidProgram() {
    SessionSupport support = new SetsidProbe().probe();

    assertThat(support.available()).as(support.explanation()).isTrue();
    assertThat(support.spawned()).as(support.explanation()).isTrue();
    assertThat(support.setsid()).isEmpty();
    assertThat(support.explanation()).contains("POSIX_SPAWN_SETSID verified");
  }

  @Test
  void verifiesTheSystemSetsid() {
    assumeTrue(SetsidProbe.SETSID_PATHS.stream().anyMatch(Files::isExecutable), "no setsid here");

    SessionSupport support =
        new SetsidProbe(SetsidProbe.SETSID_PATHS, SetsidProbe.CAT_PATHS).probe();

    assertThat(support.available()).as(support.explanation()).isTrue();
    assertThat(SetsidProbe.SETSID_PATHS).contains(support.setsid().orElseThrow());
    assertThat(support.explanation()).contains("verified");
  }

  @Test
  void reportsAMissingSetsid() {
    SessionSupport support =
        new SetsidProbe(List.of(dir.resolve("setsid")), SetsidProbe.CAT_PATHS).probe();

    assertThat(support.available()).isFalse();
    assertThat(support.explanation())
        .contains("no setsid in")
        .contains("only their descendants are ended");
  }

  @Test
  void doesNotTrustASetsidItCannotCheck() {
    SessionSupport support =
        new SetsidProbe(SetsidProbe.SETSID_PATHS, List.of(dir.resolve("cat"))).probe();

    assertThat(support.available()).isFalse();
    assertThat(support.explanation()).contains("cannot be verified");
  }

  @Test
  void rejectsASetsidThatDoesNotStartASession() throws IOException {
    Path impostor = fakeSetsid("shift\nexec \"$@\"");

    SessionSupport support = new SetsidProbe(List.of(impostor), SetsidProbe.CAT_PATHS).probe();

    assertThat(support.available()).isFalse();
    assertThat(support.explanation()).contains("did not start a new session");
  }

  @Test
  void rejectsASetsidThatForks() throws IOException {
    Path forking = fakeSetsid("shift\nsetsid \"$@\"");

    SessionSupport support = new SetsidProbe(List.of(forking), SetsidProbe.CAT_PATHS).probe();

    assertThat(support.available()).isFalse();
    assertThat(support.explanation()).contains("forked");
  }

  @Test
  void rejectsASetsidThatFails() throws IOException {
    Path failing = fakeSetsid("exit 3");

    SessionSupport support = new SetsidProbe(List.of(failing), SetsidProbe.CAT_PATHS).probe();

    assertThat(support.available()).isFalse();
    assertThat(support.explanation()).contains("exit status 3");
  }

  private Path fakeSetsid(String body) throws IOException {
    Path fake = dir.resolve("setsid");
    Files.writeString(fake, "#!/bin/sh\nPATH=/usr/bin:/bin\n" + body + "\n");
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    return fake;
  }
}
