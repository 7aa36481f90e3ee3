package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.PinnedCopy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {
  @TempDir Path tmp;

  @Test
  void keepsPrivateFilesInAPassThroughOnlyDirectoryAndRemovesThem() throws IOException {
    Path base = RunDirectory.createBase(tmp);
    Path directory;
    try (RunDirectory run = RunDirectory.create(base)) {
      directory = run.path();
      run.writeSystemFiles(new SandboxIdentity(40000, 40001, true));
      Path secret = run.writePrivate("args", new byte[] {1, 2, 3});

      assertThat(Files.getPosixFilePermissions(base))
          .isEqualTo(PosixFilePermissions.fromString("rwx--x--x"));
      assertThat(Files.getPosixFilePermissions(directory))
          .isEqualTo(PosixFilePermissions.fromString("rwx--x--x"));
      assertThat(Files.getPosixFilePermissions(secret))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      assertThat(run.files().passwd())
          .hasContent(
              "sandbox:x:40000:40001:sandbox:/tmp:/usr/sbin/nologin\n"
                  + "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin");
      assertThat(run.files().group()).hasContent("sandbox:x:40001:\nnogroup:x:65534:");
      assertThat(run.files().mask()).isEmptyDirectory();
      assertThat(Files.getPosixFilePermissions(run.files().mask()))
          .isEqualTo(PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    assertThat(directory).doesNotExist();
    assertThat(base).exists();
  }

  @Test
  void sharesAPlaceholderBetweenRunsAndRemovesItWhenTheLastOneEnds() throws IOException {
    Path base = RunDirectory.createBase(tmp);
    PlaceholderJournal journal = new PlaceholderJournal(tmp);
    Path shared = tmp.resolve(".bashrc");
    SandboxLayout.Placeholders planned =
        new SandboxLayout.Placeholders(journal, List.of(shared));
    RunDirectory first = RunDirectory.create(base);
    first.createPlaceholders(planned);
    assertThat(shared).isEmptyDirectory();
    try (RunDirectory second = RunDirectory.create(base)) {
      second.createPlaceholders(planned);
      assertThat(journal.placeholders()).containsExactly(shared);
      first.close();
      assertThat(shared).as("the second run still masks it").isEmptyDirectory();
    }
    assertThat(shared).doesNotExist();
    assertThat(journal.placeholders()).isEmpty();
  }

  @Test
  void leavesAPlaceholderThatWasReplacedOrFilledAndRefusesAPathThatAppeared() throws IOException {
    Path base = RunDirectory.createBase(tmp);
    PlaceholderJournal journal = new PlaceholderJournal(tmp);
    Path replaced = tmp.resolve("replaced");
    Path filled = tmp.resolve(".capability");
    Path appeared = Files.writeString(tmp.resolve("appeared"), "someone else's");
    try (RunDirectory run = RunDirectory.create(base)) {
      run.createPlaceholders(new SandboxLayout.Placeholders(journal, List.of(replaced, filled)));
      Files.delete(replaced);
      Files.writeString(replaced, "someone else's");
      Files.writeString(filled.resolve("state.db"), "the ledger");
    }
    assertThat(replaced).hasContent("someone else's");
    assertThat(filled.resolve("state.db")).hasContent("the ledger");
    try (RunDirectory run = RunDirectory.create(base)) {
      assertThatThrownBy(
              () ->
                  run.createPlaceholders(
                      new SandboxLayout.Placeholders(journal, List.of(appeared))))
          .isInstanceOf(LaunchFailedException.class)
          .hasMessageContaining("must stay absent");
    }
    assertThat(appeared).hasContent("someone else's");
    assertThat(journal.placeholders()).isEmpty();
  }

  @Test
  void copiesThePinnedBytesReadOnlyOrRefusesChangedOnes() throws IOException {
    Path original = Files.writeString(tmp.resolve("tool"), "#!/bin/sh\necho hi\n");
    String sha = Sha256.hex(Files.readAllBytes(original));
    Path copy = tmp.resolve("copy");
    PinnedCopy.copy(
        new PinnedExecutable(original, sha, original.toString(), PinnedExecutable.Pinning.PROC_FD),
        copy);

    assertThat(copy).hasSameBinaryContentAs(original);
    assertThat(Files.getPosixFilePermissions(copy))
        .isEqualTo(PosixFilePermissions.fromString("r-xr-xr-x"));
    Files.writeString(original, "#!/bin/sh\necho changed\n");
    PinnedExecutable stale =
        new PinnedExecutable(original, sha, original.toString(), PinnedExecutable.Pinning.PROC_FD);
    assertThatThrownBy(() -> PinnedCopy.copy(stale, tmp.resolve("second")))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("not the pinned " + sha);
    assertThatThrownBy(() -> PinnedCopy.copy(stale, copy))
        .as("never overwrites an existing file")
        .isInstanceOf(LaunchFailedException.class);
  }
}
