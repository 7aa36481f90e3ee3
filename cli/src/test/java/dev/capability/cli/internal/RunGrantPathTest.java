package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run notes} without its directory is a refusal that says so (exit 3), not "isolation unavailable" (126). */
class RunGrantPathTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String NOTES = "../examples/capabilities/notes";
  @TempDir Path repo;

  @BeforeEach
  void repository() throws IOException {
    BWRAP.backend();
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  private CliRunner.Outcome runNotes() {
    return CliRunner.run("run", NOTES, "--backend", "bwrap", "--repo", repo.toString(), "--policy", "permissive",
        "--approve", "filesystem.write=notes", "--input", "{\"title\":\"first\",\"text\":\"hello\"}", "--no-ledger");
  }

  @Test
  void aMissingNotesDirectoryIsReportedAsMissing() {
    CliRunner.Outcome outcome = runNotes();

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.out() + outcome.err()).contains("GRANT_PATH_MISSING").contains("mkdir");
    assertThat(repo.resolve("notes")).doesNotExist();
  }

  @Test
  void aNotesDirectoryTheSandboxCannotWriteIsReportedAsNotWritable() throws IOException {
    Files.createDirectory(repo.resolve("notes"));
    Files.setPosixFilePermissions(repo.resolve("notes"), PosixFilePermissions.fromString("r-xr-xr-x"));

    CliRunner.Outcome outcome = runNotes();

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.out() + outcome.err()).contains("GRANT_PATH_NOT_WRITABLE").contains("chown");
  }
}
