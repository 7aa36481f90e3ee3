package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk refuses: it is full, or it cannot be written. A clear error, and nothing committed is lost or overwritten. */
class StorageFaultTest {
  @TempDir Path dir;

  @Test
  void aWriteRefusedByAFileSizeLimitFailsTheAppendClearlyAndKeepsEverythingCommitted() throws Exception {
    assumeThat(Path.of("/usr/bin/prlimit")).as("prlimit (util-linux) caps the child's file size").exists();
    Path db = dir.resolve("state.db");
    // RLIMIT_FSIZE makes every write past 6 MB fail with EFBIG; the JVM ignores SIGXFSZ.
    ChildJvm child = ChildJvm.start(List.of("/usr/bin/prlimit", "--fsize=6000000"), "fill", db.toString());
    child.finish();

    String error = onlyLine(child, "error ");
    assertThat(error).startsWith("error LEDGER_IO_ERROR ").contains("a write was refused").contains(db.toString());
    assertSurvived(child);
    LedgerReader reader = LedgerReader.open(db, Fixtures.options());
    for (String line : child.committed()) {
      String[] parts = line.split(" ");
      assertThat(reader.show(Long.parseLong(parts[1]))).hasValueSatisfying(e -> assertThat(e.hash()).isEqualTo(parts[2]));
    }
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      assertThat(ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("after"), 0, ""))).sequence())
          .as("with room again, the ledger goes on").isEqualTo(child.committed().size() + 1L);
    }
  }

  @Test
  void aFullFileSystemFailsTheAppendWithStorageFullAndKeepsEverythingCommitted() throws Exception {
    assumeThat(System.getProperty("user.name")).as("mounting a small tmpfs needs root").isEqualTo("root");
    Path mountPoint = Files.createDirectory(dir.resolve("tmpfs"));
    Process probe = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs",
        mountPoint.toString()).redirectErrorStream(true).start();
    String probeOutput = new String(probe.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assumeThat(probe.waitFor()).as("unshare and mount work here: %s", probeOutput).isZero();

    // A 4 MB tmpfs in a mount namespace of the child's own, so the host's mounts never change;
    // it disappears with the child, which therefore checks the file itself before it exits.
    ChildJvm child = ChildJvm.start(List.of("unshare", "--mount", "--propagation", "private"), "fill-tmpfs", mountPoint.toString());
    child.finish();

    String error = onlyLine(child, "error ");
    assertThat(error).startsWith("error LEDGER_STORAGE_FULL ").contains("disk is full");
    assertSurvived(child);
    assertThat(mountPoint).as("the host never saw the tmpfs").isEmptyDirectory();
  }

  private static String onlyLine(ChildJvm child, String prefix) {
    List<String> matching;
    synchronized (child.lines) {
      matching = child.lines.stream().filter(l -> l.startsWith(prefix)).toList();
    }
    assertThat(matching).as("child output: %s", tail(child.lines)).hasSize(1);
    return matching.get(0);
  }

  private static void assertSurvived(ChildJvm child) {
    assertThat(child.committed()).as("records landed before the storage refused").hasSizeGreaterThan(100);
    assertThat(onlyLine(child, "integrity_check ")).isEqualTo("integrity_check ok");
    assertThat(onlyLine(child, "missing ")).as("committed records that are gone").isEqualTo("missing 0");
    assertThat(onlyLine(child, "verified ")).isEqualTo("verified INTACT INTACT");
  }

  @Test
  void aLedgerThatCannotBeWrittenIsRefusedClearlyAndLeftAsItWas() throws Exception {
    Path ledgerDir = Files.createDirectory(dir.resolve("ro"));
    Path db = ledgerDir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
    }
    byte[] before = Files.readAllBytes(db);
    List<Path> files;
    try (var list = Files.list(ledgerDir)) {
      files = list.toList();
    }
    boolean root = "root".equals(System.getProperty("user.name"));
    List<String> undo = new ArrayList<>();
    try {
      if (root) {
        // Permissions do not stop root; the immutable attribute does.
        List<String> chattr = new ArrayList<>(List.of("chattr", "+i"));
        files.forEach(f -> chattr.add(f.toString()));
        chattr.add(ledgerDir.toString());
        Process p = new ProcessBuilder(chattr).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assumeThat(p.waitFor()).as("chattr +i works on this file system: %s", output).isZero();
        undo.add("-i");
      } else {
        for (Path f : files) {
          Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r--r--"));
        }
        Files.setPosixFilePermissions(ledgerDir, PosixFilePermissions.fromString("r-x------"));
      }

      LedgerException refused = null;
      try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
        ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
      } catch (LedgerException e) {
        refused = e;
      }
      assertThat(refused).isNotNull();
      assertThat(refused.code()).isEqualTo("LEDGER_READ_ONLY");
      assertThat(refused.getMessage()).contains(ledgerDir.toString());
      assertThat(Files.readAllBytes(db)).isEqualTo(before);
    } finally {
      if (!undo.isEmpty()) {
        List<String> chattr = new ArrayList<>(List.of("chattr", "-i", ledgerDir.toString()));
        files.forEach(f -> chattr.add(f.toString()));
        new ProcessBuilder(chattr).inheritIO().start().waitFor();
      } else if (!root) {
        Files.setPosixFilePermissions(ledgerDir, PosixFilePermissions.fromString("rwx------"));
        for (Path f : files) {
          Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        }
      }
    }
  }

  private static List<String> tail(List<String> lines) {
    synchronized (lines) {
      return new ArrayList<>(lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }
  }
}
