package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.store.PlaybookEntry;
import dev.capability.kernel.api.store.PlaybookPattern;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The playbook's file: off until enabled, private when enabled, and refused wherever a link or another user could reach it. */
class SqlitePlaybookTest {
  @TempDir Path home;

  private static final PlaybookEntry JAVA_SOURCE = new PlaybookEntry("misread-api", "api-behaviour", Set.of("java"), Set.of("source"));
  private static final PlaybookEntry MARKDOWN_DOCS = new PlaybookEntry("stale-docs", "documented-behaviour", Set.of("markdown"), Set.of("docs"));

  private Path capabilityDir() {
    return home.resolve(".capability");
  }

  @Test
  void isDisabledByDefaultAndCreatesNothingWhenAsked() throws Exception {
    assertThat(SqlitePlaybook.enabled(home)).isFalse();
    assertThat(SqlitePlaybook.openIfEnabled(home)).isEmpty();
    assertThat(SqlitePlaybook.disable(home)).isFalse();
    try (var listing = Files.list(home)) {
      assertThat(listing).isEmpty();
    }
  }

  @Test
  void enablingCreatesAnOwnerOnlyFileInAnOwnerOnlyDirectory() throws Exception {
    try (SqlitePlaybook playbook = SqlitePlaybook.enable(home)) {
      assertThat(playbook.databaseFile()).isEqualTo(capabilityDir().resolve("playbook.db"));
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(capabilityDir(), LinkOption.NOFOLLOW_LINKS))).isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(capabilityDir().resolve("playbook.db"), LinkOption.NOFOLLOW_LINKS)))
        .isEqualTo("rw-------");
    assertThat(SqlitePlaybook.enabled(home)).isTrue();
    assertThat(SqlitePlaybook.openIfEnabled(home)).hasValueSatisfying(SqlitePlaybook::close);
  }

  @Test
  void countsOccurrencesAcrossOpeningsAndAnswersOnlyThePatternsThatConcernTheFiles() {
    try (SqlitePlaybook playbook = SqlitePlaybook.enable(home)) {
      assertThat(playbook.record(JAVA_SOURCE)).isEqualTo(1);
      assertThat(playbook.record(MARKDOWN_DOCS)).isEqualTo(1);
    }
    try (SqlitePlaybook playbook = SqlitePlaybook.openIfEnabled(home).orElseThrow()) {
      assertThat(playbook.record(JAVA_SOURCE)).isEqualTo(2);
      assertThat(playbook.concerning(Set.of("java"), Set.of("source", "test"))).containsExactly(new PlaybookPattern(JAVA_SOURCE, 2));
      assertThat(playbook.concerning(Set.of("python"), Set.of("source"))).isEmpty();
      assertThat(playbook.concerning(Set.of(), Set.of("docs"))).containsExactly(new PlaybookPattern(MARKDOWN_DOCS, 1));
      assertThat(playbook.concerning(Set.of(), Set.of()))
          .containsExactly(new PlaybookPattern(JAVA_SOURCE, 2), new PlaybookPattern(MARKDOWN_DOCS, 1));
    }
  }

  @Test
  void disablingDeletesEverythingItLearned() {
    try (SqlitePlaybook playbook = SqlitePlaybook.enable(home)) {
      playbook.record(JAVA_SOURCE);
    }
    assertThat(SqlitePlaybook.disable(home)).isTrue();
    assertThat(SqlitePlaybook.enabled(home)).isFalse();
    assertThat(capabilityDir().resolve("playbook.db")).doesNotExist();
    try (SqlitePlaybook playbook = SqlitePlaybook.enable(home)) {
      assertThat(playbook.concerning(Set.of(), Set.of())).isEmpty();
    }
  }

  @Test
  void refusesASymlinkedDirectoryAndCreatesNothingThroughIt() throws Exception {
    Path elsewhere = Files.createDirectory(home.resolve("elsewhere"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.createSymbolicLink(capabilityDir(), elsewhere);

    assertUnsafe(() -> SqlitePlaybook.enable(home));
    try (var listing = Files.list(elsewhere)) {
      assertThat(listing).isEmpty();
    }
    // A playbook reached through the link is refused too, whether opened or disabled.
    Files.createFile(elsewhere.resolve("playbook.db"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    assertUnsafe(() -> SqlitePlaybook.openIfEnabled(home));
    assertUnsafe(() -> SqlitePlaybook.disable(home));
    assertThat(elsewhere.resolve("playbook.db")).exists();
  }

  @Test
  void refusesASymlinkedFileAndLeavesItsTargetUntouched() throws Exception {
    Files.createDirectory(capabilityDir(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path target = Files.createFile(home.resolve("target.db"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.createSymbolicLink(capabilityDir().resolve("playbook.db"), target);

    assertUnsafe(() -> SqlitePlaybook.enable(home));
    assertUnsafe(() -> SqlitePlaybook.openIfEnabled(home));
    assertThat(Files.size(target)).isZero();
  }

  @Test
  void refusesASymlinkedJournal() throws Exception {
    SqlitePlaybook.enable(home).close();
    Path target = Files.createFile(home.resolve("journal"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.createSymbolicLink(capabilityDir().resolve("playbook.db-journal"), target);

    assertUnsafe(() -> SqlitePlaybook.openIfEnabled(home));
  }

  @Test
  void refusesAWorldWritableDirectory() throws Exception {
    refusesADirectoryOfMode("rwx---rwx");
  }

  @Test
  void refusesAGroupWritableDirectory() throws Exception {
    refusesADirectoryOfMode("rwxrwx---");
  }

  private void refusesADirectoryOfMode(String mode) throws Exception {
    Files.createDirectory(capabilityDir());
    Files.setPosixFilePermissions(capabilityDir(), PosixFilePermissions.fromString(mode));

    assertUnsafe(() -> SqlitePlaybook.enable(home));
    assertThat(capabilityDir().resolve("playbook.db")).doesNotExist();
    // A playbook already there is refused once its directory became shared.
    Files.setPosixFilePermissions(capabilityDir(), PosixFilePermissions.fromString("rwx------"));
    SqlitePlaybook.enable(home).close();
    Files.setPosixFilePermissions(capabilityDir(), PosixFilePermissions.fromString(mode));
    assertUnsafe(() -> SqlitePlaybook.openIfEnabled(home));
  }

  @Test
  void aDirectoryWithoutAPlaybookIsDisabledWhateverItsMode() throws Exception {
    Files.createDirectory(capabilityDir());
    Files.setPosixFilePermissions(capabilityDir(), PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThat(SqlitePlaybook.enabled(home)).isFalse();
    assertThat(SqlitePlaybook.openIfEnabled(home)).isEmpty();
  }

  @Test
  void refusesAFileOthersMayRead() throws Exception {
    SqlitePlaybook.enable(home).close();
    Files.setPosixFilePermissions(capabilityDir().resolve("playbook.db"), PosixFilePermissions.fromString("rw-r--r--"));

    assertUnsafe(() -> SqlitePlaybook.openIfEnabled(home));
    assertUnsafe(() -> SqlitePlaybook.enable(home));
  }

  @Test
  void refusesAndLeavesUntouchedAFileThatIsNotAPlaybook() throws Exception {
    Files.createDirectory(capabilityDir(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path db = capabilityDir().resolve("playbook.db");
    Files.createFile(db, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(db, "not a database at all, just some text that is long enough to be a header", StandardCharsets.UTF_8);
    byte[] before = Files.readAllBytes(db);
    assertThatThrownBy(() -> SqlitePlaybook.openIfEnabled(home))
        .isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.code()).isEqualTo(LedgerCodes.PLAYBOOK_NOT_PLAYBOOK));
    assertThat(Files.readAllBytes(db)).isEqualTo(before);

    Files.delete(db);
    Files.createFile(db, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE other (x)");
    }
    assertThatThrownBy(() -> SqlitePlaybook.openIfEnabled(home))
        .isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.code()).isEqualTo(LedgerCodes.PLAYBOOK_NOT_PLAYBOOK));
  }

  @Test
  void refusesARelativeHome() {
    assertUnsafe(() -> SqlitePlaybook.enabled(Path.of("relative")));
  }

  @Test
  void aClosedPlaybookRefusesWithItsCode() {
    SqlitePlaybook playbook = SqlitePlaybook.enable(home);
    playbook.close();
    assertThatThrownBy(() -> playbook.record(JAVA_SOURCE))
        .isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.code()).isEqualTo(LedgerCodes.PLAYBOOK_CLOSED));
  }

  private static void assertUnsafe(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.code()).isEqualTo(LedgerCodes.PLAYBOOK_LOCATION_UNSAFE));
  }
}
