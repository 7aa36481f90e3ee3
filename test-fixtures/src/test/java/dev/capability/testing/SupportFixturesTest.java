package dev.capability.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class SupportFixturesTest {
  @TempDir Path temp;

  @Test
  void readableByEveryoneOpensDirectoriesAndFilesBelowTheRoot() throws IOException {
    Path directory = Files.createDirectories(temp.resolve("a/b"));
    Path file = Files.writeString(directory.resolve("f"), "x");
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

    Ownership.readableByEveryone(temp.resolve("a"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwxr-xr-x");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
  }

  @Test
  void theCurrentUidIsTheOwnerOfWhatThisJvmCreates() throws IOException {
    Path file = Files.createFile(temp.resolve("mine"));

    assertThat(Ownership.currentUid()).isEqualTo(Files.getAttribute(file, "unix:uid"));
  }

  @Test
  void hostProgramsAreFoundInTheSystemDirectoriesOnly() {
    assertThat(HostPrograms.find("sh").getParent().toString()).isIn("/usr/bin", "/bin");
    assertThat(HostPrograms.lookup("no-such-program-here")).isEmpty();
    assertThatThrownBy(() -> HostPrograms.find("no-such-program-here"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no-such-program-here");
  }

  @Test
  void aMissingBackendSkipsUnlessBackendsAreRequired() {
    Class<? extends Throwable> expected =
        RequiredBackends.required() ? AssertionError.class : TestAbortedException.class;

    assertThatThrownBy(() -> RequiredBackends.skipOrFail("no bwrap here"))
        .isInstanceOf(expected)
        .hasMessageContaining("no bwrap here")
        .hasMessageContaining(RequiredBackends.VARIABLE);
  }
}
