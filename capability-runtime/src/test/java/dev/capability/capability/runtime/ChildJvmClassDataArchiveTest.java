package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's class-data archive for the child JVM: used and attested when it is the operator's, refused otherwise. */
class ChildJvmClassDataArchiveTest {
  private static final BackendGate GATE = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  @TempDir Path work;
  private Path archive;

  @BeforeEach
  void operatorsArchive() throws IOException, InterruptedException {
    // The sandbox runs as nobody: the test's directories must let it through.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path directory = Files.createDirectory(work.resolve("cds"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    archive = directory.resolve("host.jsa");
    // An archive of the JDK classes a run loads; an empty class path at dump time fits any later one.
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process dump =
        new ProcessBuilder(java.toString(), "-XX:ArchiveClassesAtExit=" + archive, "-version")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(dump.waitFor()).isZero();
    Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("rw-r--r--"));
  }

  @AfterAll
  static void close() {
    GATE.close();
  }

  private CapabilityPackage pkg(String effects) throws IOException {
    return TestPackages.verifyingTool(work, effects);
  }

  private ExecutionReceipt run(Path classDataArchive, String effects) throws IOException {
    Executor executor = new ChildJvmExecutor("bwrap", false, List.of(GATE.backend()), work, Optional.of(classDataArchive));
    return CapabilityRuntime.builder()
        .executor(executor)
        .policy(EffectPolicies.permissive(Approval::grant))
        .build()
        .run(pkg(effects), "{\"text\":\"x\"}");
  }

  @Test
  void runsWithTheArchiveNamedInTheAttestedArgv() throws IOException {
    ExecutionReceipt receipt = run(archive, "{}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.output()).contains("{\"ok\":true}");
    assertThat(receipt.attestation()).hasValueSatisfying(a -> assertThat(a.argv()).contains("-XX:SharedArchiveFile=" + archive));
  }

  @Test
  void refusesAnArchiveOthersCanWrite() throws IOException {
    Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("rw-rw-rw-"));

    ExecutionReceipt receipt = run(archive, "{}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo("ISOLATION_UNAVAILABLE");
    assertThat(receipt.message()).contains(archive.toString()).contains("writable by group or others");
    assertThat(receipt.attestation()).isEmpty();
  }

  @Test
  void refusesAnArchiveWhoseDirectoryOthersCanWrite() throws IOException {
    // Whoever can write the directory can put another file in the archive's place.
    Files.setPosixFilePermissions(archive.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));

    ExecutionReceipt receipt = run(archive, "{}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.message()).contains("directory").contains("writable by group or others");
  }

  @Test
  void refusesASymlinkToAnArchive() throws IOException {
    Path link = Files.createSymbolicLink(archive.resolveSibling("link.jsa"), archive);

    ExecutionReceipt receipt = run(link, "{}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.message()).contains("not a regular file");
  }

  @Test
  void refusesAnArchiveTheCapabilityIsGrantedToWrite() throws IOException {
    // A capability granted the archive's directory could replace the archive for the runs after it.
    Path notes = Files.createDirectory(work.resolve("notes"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    Path inside = Files.copy(archive, notes.resolve("host.jsa"));

    ExecutionReceipt receipt = run(inside, "{\"filesystem.write\": [\"notes\"]}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.message()).contains("granted writable path " + notes);
    assertThat(receipt.attestation()).isEmpty();
  }

  @Test
  void refusesAPathTheJvmWouldReadAsTwoArchives() {
    assertThatThrownBy(() -> CapabilityExecutors.childJvm("bwrap", false, work, Path.of(archive + ":" + archive)))
        .isInstanceOf(CapabilityException.class)
        .hasMessageContaining("':'");
  }

  @Test
  void refusesARelativePath() {
    assertThatThrownBy(() -> CapabilityExecutors.childJvm("bwrap", false, work, Path.of("host.jsa")))
        .isInstanceOf(CapabilityException.class)
        .hasMessageContaining("not an absolute path");
  }
}
