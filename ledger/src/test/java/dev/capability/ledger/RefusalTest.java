package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files that are not ledgers, ledgers from the future, damaged files and bad keys: refused with a clear code, never written. */
class RefusalTest {
  @TempDir Path dir;

  private String codeOf(Runnable action) {
    try {
      action.run();
    } catch (LedgerException e) {
      return e.code();
    }
    throw new AssertionError("expected a LedgerException");
  }

  @Test
  void aFileThatIsNotSqliteIsRefusedAndLeftAlone() throws Exception {
    Path db = dir.resolve("state.db");
    Files.writeString(db, "my notes, not a database\n");
    byte[] before = Files.readAllBytes(db);

    assertThat(codeOf(() -> SqliteLedger.open(db, Fixtures.options()))).isEqualTo("LEDGER_NOT_SQLITE");
    assertThat(codeOf(() -> LedgerReader.open(db, Fixtures.options()))).isEqualTo("LEDGER_NOT_SQLITE");
    assertThat(Files.readAllBytes(db)).isEqualTo(before);
    assertThat(dir).isDirectoryNotContaining("glob:**/state.db-*").isDirectoryNotContaining("glob:**/ledger-key*");
  }

  @Test
  void aSqliteDatabaseOfAnotherApplicationIsRefusedAndLeftAlone() throws Exception {
    Path db = dir.resolve("state.db");
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
      s.execute("INSERT INTO customers (name) VALUES ('ada')");
    }
    byte[] before = Files.readAllBytes(db);

    assertThatThrownBy(() -> SqliteLedger.open(db, Fixtures.options())).isInstanceOf(LedgerException.class)
        .hasMessageContaining("another application").hasMessageContaining("left untouched")
        .extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_FOREIGN_DATABASE");
    assertThat(Files.readAllBytes(db)).isEqualTo(before);
    assertThat(dir).isDirectoryNotContaining("glob:**/state.db-wal");
  }

  @Test
  void aLedgerOfANewerSchemaIsRefusedAndLeftAlone() throws Exception {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
    }
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.execute("PRAGMA user_version = 99");
    }
    byte[] before = Files.readAllBytes(db);

    assertThatThrownBy(() -> SqliteLedger.open(db, Fixtures.options())).isInstanceOf(LedgerException.class)
        .hasMessageContaining("version 99").extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_SCHEMA_TOO_NEW");
    assertThat(codeOf(() -> LedgerReader.open(db, Fixtures.options()))).isEqualTo("LEDGER_SCHEMA_TOO_NEW");
    assertThat(Files.readAllBytes(db)).isEqualTo(before);
  }

  @Test
  void aDamagedHeaderIsRefusedAndTheFileIsNotOverwritten() throws Exception {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
    }
    byte[] damaged = Files.readAllBytes(db);
    // Bytes 16-17 hold the page size; 3 is not a power of two.
    damaged[16] = 0;
    damaged[17] = 3;
    Files.write(db, damaged);

    assertThat(codeOf(() -> SqliteLedger.open(db, Fixtures.options()))).isIn("LEDGER_CORRUPT", "LEDGER_NOT_SQLITE");
    assertThat(Files.readAllBytes(db)).isEqualTo(damaged);
  }

  @Test
  void anEmptySqliteDatabaseBecomesALedger() throws Exception {
    Path db = dir.resolve("state.db");
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.execute("VACUUM");
    }
    assertThat(Files.size(db)).isPositive();
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      assertThat(ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("ls"), 0, ""))).sequence()).isEqualTo(1);
    }
  }

  @Test
  void anExistingLedgerWithoutItsKeyIsNotWritten() throws Exception {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
    }
    Files.delete(dir.resolve("ledger-key"));
    byte[] before = Files.readAllBytes(db);
    assertThat(codeOf(() -> SqliteLedger.open(db, Fixtures.options()))).isEqualTo("LEDGER_KEY_MISSING");
    assertThat(Files.readAllBytes(db)).isEqualTo(before);
    assertThat(dir.resolve("ledger-key")).as("no new key is made for an old ledger").doesNotExist();
  }

  @Test
  void aKeyOthersCanReadIsRefused() throws Exception {
    Path db = dir.resolve("state.db");
    SqliteLedger.open(db, Fixtures.options()).close();
    Files.setPosixFilePermissions(dir.resolve("ledger-key"), PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> SqliteLedger.open(db, Fixtures.options())).isInstanceOf(LedgerException.class)
        .hasMessageContaining("0600").extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_KEY_INVALID");
  }

  @Test
  void anotherLedgersKeyIsRefused() throws Exception {
    Path db = dir.resolve("state.db");
    SqliteLedger.open(db, Fixtures.options()).close();
    Path other = Files.createDirectory(dir.resolve("other"));
    SqliteLedger.open(other.resolve("state.db"), Fixtures.options()).close();
    Files.copy(other.resolve("ledger-key"), dir.resolve("ledger-key"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(codeOf(() -> SqliteLedger.open(db, Fixtures.options()))).isEqualTo("LEDGER_KEY_MISMATCH");
    Files.copy(other.resolve("ledger-key.pub"), dir.resolve("ledger-key.pub"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(codeOf(() -> SqliteLedger.open(db, Fixtures.options()))).as("both halves swapped").isEqualTo("LEDGER_KEY_MISMATCH");
  }

  @Test
  void aSwappedPublicKeyIsRefused() throws Exception {
    Path db = dir.resolve("state.db");
    SqliteLedger.open(db, Fixtures.options()).close();
    Path other = Files.createDirectory(dir.resolve("other"));
    SqliteLedger.open(other.resolve("state.db"), Fixtures.options()).close();
    Files.copy(other.resolve("ledger-key.pub"), dir.resolve("ledger-key.pub"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(codeOf(() -> SqliteLedger.open(db, Fixtures.options()))).isEqualTo("LEDGER_KEY_MISMATCH");
  }

  @Test
  void aKeyFileThatIsNotAKeyIsRefused() throws Exception {
    Path db = dir.resolve("state.db");
    Path key = dir.resolve("ledger-key");
    Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n", StandardCharsets.US_ASCII);
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    assertThat(codeOf(() -> SqliteLedger.open(db, Fixtures.options()))).isEqualTo("LEDGER_KEY_INVALID");
  }

  @Test
  void readingNeverCreatesALedger() {
    Path db = dir.resolve("state.db");
    assertThat(codeOf(() -> LedgerReader.open(db, Fixtures.options()))).isEqualTo("LEDGER_NOT_FOUND");
    assertThat(codeOf(() -> LedgerReader.forRepository(dir))).isEqualTo("LEDGER_NOT_FOUND");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void pathsTheDriverWouldMisreadAreRefused() {
    assertThat(codeOf(() -> SqliteLedger.open(dir.resolve("a?mode=memory"), Fixtures.options()))).isEqualTo("LEDGER_PATH_UNSUPPORTED");
    assertThat(codeOf(() -> SqliteLedger.open(dir.resolve("missing").resolve("state.db"), Fixtures.options()))).isEqualTo("LEDGER_IO_ERROR");
  }
}
