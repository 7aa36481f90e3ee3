package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.store.DecisionRecord;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.ledger.internal.ChainHash;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteLedgerTest {
  @TempDir Path repo;

  @Test
  void recordsExecutionsAndDenialsAndListsThemNewestFirst() {
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      ledger.record(Fixtures.completed(List.of("git", "status"), 0, "clean"));
      ledger.record(Fixtures.denied(List.of("git", "--exec-path=/x"), "flag refused"));
      ledger.record(Fixtures.completed(List.of("mvn", "-q", "test"), 1, "FAIL"));
    }
    List<EntrySummary> all = LedgerReader.forRepository(repo).list(LedgerQuery.latest(10));

    assertThat(all).extracting(EntrySummary::sequence).containsExactly(3L, 2L, 1L);
    assertThat(all.get(0).status()).isEqualTo("COMPLETED");
    assertThat(all.get(0).exitCode()).isEqualTo(1);
    assertThat(all.get(0).argv()).containsExactly("mvn", "-q", "test");
    assertThat(all.get(0).executable()).isEqualTo("/usr/bin/mvn");
    assertThat(all.get(0).backend()).isEqualTo("process");
    assertThat(all.get(0).policyHash()).isEqualTo(Fixtures.POLICY_HASH);
    assertThat(all.get(1).status()).isEqualTo("DENIED");
    assertThat(all.get(1).exitCode()).isNull();
    assertThat(all.get(1).executable()).isNull();
  }

  @Test
  void theDatabaseHoldsTheAttestationAndNothingElseOfTheResult() throws Exception {
    String secretOutput = "token=ghp_thisMustNeverBeStored";
    String secretMessage = "denied because PASSWORD=hunter2hunter2";
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      ledger.record(Fixtures.completed(List.of("env"), 0, secretOutput));
      ledger.record(Fixtures.denied(List.of("git", "-c"), secretMessage));
      assertThat(filesContaining(repo.resolve(".capability"), "ghp_thisMustNeverBeStored")).isEmpty();
      assertThat(filesContaining(repo.resolve(".capability"), "hunter2hunter2")).isEmpty();
    }
    assertThat(filesContaining(repo.resolve(".capability"), "ghp_thisMustNeverBeStored")).isEmpty();
    LedgerEntry first = LedgerReader.forRepository(repo).show(1).orElseThrow();
    assertThat(CanonicalJson.serialize(first.body()))
        .isEqualTo(CanonicalJson.serialize(AttestationJson.toMap(Fixtures.completed(List.of("env"), 0, secretOutput).attestation())));
  }

  @Test
  void eachRecordHashesItsPredecessorAndItsCanonicalEnvelope() throws Exception {
    Attestation attestation = Fixtures.completed(List.of("grep", "-r", "naïve €"), 0, "").attestation();
    Appended first;
    Appended second;
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      first = ledger.append(LedgerRecord.execution(attestation));
      second = ledger.append(LedgerRecord.execution(attestation));
    }
    String ledgerId;
    try (Connection c = Fixtures.raw(SqliteLedger.databaseFile(repo)); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT value FROM ledger_meta WHERE name = 'ledger_id'")) {
      rs.next();
      ledgerId = rs.getString(1);
    }
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("seq", 2L);
    envelope.put("kind", "execution");
    envelope.put("recordedAt", second.recordedAt());
    envelope.put("body", AttestationJson.toMap(attestation));
    byte[] canonical = CanonicalJson.bytes(envelope);
    var digest = java.security.MessageDigest.getInstance("SHA-256");
    digest.update(java.util.HexFormat.of().parseHex(first.hash()));
    digest.update(canonical);

    assertThat(second.hash()).isEqualTo(java.util.HexFormat.of().formatHex(digest.digest()));
    assertThat(ChainHash.envelope(2, "execution", second.recordedAt(),
        CanonicalJson.bytes(AttestationJson.toMap(attestation)))).isEqualTo(canonical);
    LedgerEntry shown = LedgerReader.forRepository(repo).show(1).orElseThrow();
    assertThat(shown.prevHash()).isEqualTo(ChainHash.genesis(ledgerId));
    assertThat(shown.hashMatches()).isTrue();
    assertThat(shown.body().get("argv")).isEqualTo(List.of("grep", "-r", "naïve €"));
  }

  @Test
  void listFiltersByTimeStatusAndKind() {
    MutableClock clock = new MutableClock(Instant.parse("2026-11-30T09:00:00Z"));
    Path db = repo.resolve("ledger.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options().toBuilder().clock(clock).build())) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
      clock.now = Instant.parse("2026-11-30T10:00:00Z");
      ledger.record(Fixtures.denied(List.of("rm", "-rf"), "no"));
      clock.now = Instant.parse("2026-11-30T10:00:00.5Z");
      ledger.append(LedgerRecord.of(RecordKind.PLAN, Fixtures.plan("p-1")));
      ledger.record(Fixtures.completed(List.of("ls", "-l"), 2, ""));
    }
    LedgerReader reader = LedgerReader.open(db, Fixtures.options());

    assertThat(reader.list(LedgerQuery.latest(10).since(Instant.parse("2026-11-30T10:00:00Z"))))
        .extracting(EntrySummary::sequence).containsExactly(4L, 3L, 2L);
    assertThat(reader.list(LedgerQuery.latest(10).since(Instant.parse("2026-11-30T10:00:00.000001Z"))))
        .extracting(EntrySummary::sequence).containsExactly(4L, 3L);
    assertThat(reader.list(LedgerQuery.latest(10).status("DENIED"))).extracting(EntrySummary::sequence).containsExactly(2L);
    assertThat(reader.list(LedgerQuery.latest(10).status("COMPLETED"))).extracting(EntrySummary::sequence).containsExactly(4L, 1L);
    assertThat(reader.list(LedgerQuery.latest(10).kind(RecordKind.PLAN))).singleElement()
        .satisfies(s -> assertThat(s.planFingerprint()).isEqualTo(Fixtures.fingerprint("p-1")));
    assertThat(reader.list(LedgerQuery.latest(1))).extracting(EntrySummary::sequence).containsExactly(4L);
    assertThat(reader.list(LedgerQuery.latest(10).since(Instant.parse("1900-01-01T00:00:00Z")))).hasSize(4);
    assertThat(reader.list(LedgerQuery.latest(10).since(Instant.parse("+20000-01-01T00:00:00Z")))).isEmpty();
  }

  @Test
  void checkDecisionsPlansApprovalsAndReceiptsAreChainedAndQueryable() throws Exception {
    Path db = repo.resolve("ledger.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.append(LedgerRecord.decision(new DecisionRecord(List.of("curl", "x"),
          Attestation.DecisionSummary.of(dev.capability.kernel.api.Decision.deny("EXECUTABLE_NOT_ALLOWED", "operator", "executables", "no")),
          Fixtures.POLICY_HASH, null, null, null, Instant.parse("2026-11-30T10:00:00Z"))));
      Appended exec = ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("make"), 0, "")));
      ledger.append(LedgerRecord.of(RecordKind.PLAN, Fixtures.plan("plan-7")));
      ledger.append(LedgerRecord.of(RecordKind.APPROVAL, Map.of("approvalId", "a-1", "fingerprint", Fixtures.fingerprint("plan-7"),
          "approved", true, "approver", "alice")));
      ledger.append(LedgerRecord.of(RecordKind.RECEIPT, Map.of("receiptId", "r-1", "fingerprint", Fixtures.fingerprint("plan-7"),
          "status", "DONE", "executionSequence", exec.sequence())));
    }
    LedgerReader reader = LedgerReader.open(db, Fixtures.options());
    assertThat(reader.verify().intact()).isTrue();
    assertThat(reader.list(LedgerQuery.latest(10))).extracting(EntrySummary::kind, EntrySummary::status).containsExactly(
        org.assertj.core.groups.Tuple.tuple(RecordKind.RECEIPT, "DONE"),
        org.assertj.core.groups.Tuple.tuple(RecordKind.APPROVAL, "APPROVED"),
        org.assertj.core.groups.Tuple.tuple(RecordKind.PLAN, null),
        org.assertj.core.groups.Tuple.tuple(RecordKind.EXECUTION, "COMPLETED"),
        org.assertj.core.groups.Tuple.tuple(RecordKind.DECISION, "DENIED"));
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT seq, source, allowed, code, layer FROM decision_log ORDER BY seq")) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getLong(1) + " " + rs.getString(2) + " " + rs.getInt(3) + " " + rs.getString(4) + " " + rs.getString(5));
      }
      assertThat(rows).containsExactly("1 decision 0 EXECUTABLE_NOT_ALLOWED operator", "2 execution 1 ALLOWED operator");
    }
  }

  @Test
  void aRecordThatRefersToNothingIsRefusedAloneAndLeavesNoGap() {
    Path db = repo.resolve("ledger.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.append(LedgerRecord.of(RecordKind.PLAN, Fixtures.plan("p")));
      assertThatThrownBy(() -> ledger.append(LedgerRecord.of(RecordKind.APPROVAL,
          Map.of("approvalId", "a", "fingerprint", "unknown", "approved", true))))
          .isInstanceOf(LedgerException.class).hasMessageContaining("fingerprint 'unknown'")
          .extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_RECORD_INVALID");
      assertThatThrownBy(() -> ledger.append(LedgerRecord.of(RecordKind.PLAN, Fixtures.plan("p"))))
          .isInstanceOf(LedgerException.class).extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_RECORD_INVALID");
      assertThatThrownBy(() -> ledger.append(LedgerRecord.of(RecordKind.RECEIPT,
          Map.of("receiptId", "r", "fingerprint", Fixtures.fingerprint("p"), "status", "DONE", "executionSequence", 1))))
          .isInstanceOf(LedgerException.class).hasMessageContaining("not an execution record");
      Appended next = ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("ls"), 0, "")));
      assertThat(next.sequence()).isEqualTo(2);
    }
    assertThat(LedgerReader.open(db, Fixtures.options()).verify().intact()).isTrue();
  }

  @Test
  void recordsWithoutTheirIndexedMembersOrWithoutACanonicalFormAreRefused() {
    assertThatThrownBy(() -> LedgerRecord.of(RecordKind.PLAN, Map.of("planId", "p")))
        .isInstanceOf(LedgerException.class).hasMessageContaining("'fingerprint'");
    assertThatThrownBy(() -> LedgerRecord.of(RecordKind.APPROVAL, Map.of("fingerprint", "f", "approved", "yes")))
        .isInstanceOf(LedgerException.class).hasMessageContaining("boolean member 'approved'");
    assertThatThrownBy(() -> LedgerRecord.of(RecordKind.PLAN, Map.of("planId", "p", "fingerprint", "f", "when", new Object())))
        .isInstanceOf(LedgerException.class).hasMessageContaining("'/when'");
    try (SqliteLedger ledger = SqliteLedger.open(repo.resolve("l.db"), Fixtures.options())) {
      assertThatThrownBy(() -> ledger.append(LedgerRecord.of(RecordKind.PLAN,
          Map.of("planId", "p", "fingerprint", "f", "n", Double.NaN))))
          .isInstanceOf(LedgerException.class).hasMessageContaining("canonical");
    }
  }

  @Test
  void reopeningAnExistingLedgerNeverRewritesItsHistory() throws Exception {
    Path db = repo.resolve("ledger.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      for (int i = 0; i < 5; i++) {
        ledger.record(Fixtures.completed(List.of("echo", "" + i), 0, ""));
      }
    }
    String before = dump(db);
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      assertThat(ledger.reader().list(LedgerQuery.latest(10))).hasSize(5);
    }
    assertThat(dump(db)).isEqualTo(before);
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      assertThat(ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("x"), 0, ""))).sequence()).isEqualTo(6);
    }
    assertThat(dump(db)).startsWith(before);
  }

  @Test
  void keyDatabaseAndDirectoryAreOwnerOnly() throws Exception {
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
    }
    Path dir = repo.resolve(".capability");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ledger-key")))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("state.db")))).isEqualTo("rw-------");
    assertThat(Files.readString(dir.resolve("ledger-key.pub"))).startsWith("-----BEGIN PUBLIC KEY-----");
    assertThat(Files.readString(dir.resolve("ledger-key"))).contains("-----BEGIN PRIVATE KEY-----");
  }

  @Test
  void aCapabilityDirectoryThatIsASymbolicLinkIsRefused() throws Exception {
    Path elsewhere = Files.createDirectory(repo.resolve("elsewhere"));
    Path project = Files.createDirectory(repo.resolve("project"));
    Files.createSymbolicLink(project.resolve(".capability"), elsewhere);
    assertThatThrownBy(() -> SqliteLedger.forRepository(project))
        .isInstanceOf(LedgerException.class).extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_PATH_UNSUPPORTED");
    assertThat(elsewhere).isEmptyDirectory();
    Files.createSymbolicLink(repo.resolve("link.db"), Files.createFile(repo.resolve("target.db")));
    assertThatThrownBy(() -> SqliteLedger.open(repo.resolve("link.db"), Fixtures.options()))
        .isInstanceOf(LedgerException.class).extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_PATH_UNSUPPORTED");
  }

  @Test
  void aClosedLedgerRefusesAppends() {
    SqliteLedger ledger = SqliteLedger.open(repo.resolve("l.db"), Fixtures.options());
    ledger.close();
    assertThatThrownBy(() -> ledger.record(Fixtures.completed(List.of("ls"), 0, "")))
        .isInstanceOf(LedgerException.class).extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_CLOSED");
  }

  @Test
  void theProviderIsFoundThroughTheServiceLoaderAndWritesTheRepositoryLedger() {
    var provider = java.util.ServiceLoader.load(dev.capability.kernel.api.store.EvidenceStoreProvider.class).stream()
        .map(java.util.ServiceLoader.Provider::get).filter(p -> p.id().equals("sqlite")).findFirst().orElseThrow();
    try (var store = provider.open(repo)) {
      store.record(Fixtures.completed(List.of("true"), 0, ""));
    }
    assertThat(LedgerReader.forRepository(repo).list(LedgerQuery.latest(5))).hasSize(1);
  }

  static String dump(Path db) throws Exception {
    StringBuilder out = new StringBuilder();
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT e.seq, e.kind, e.recorded_at, e.prev_hash, e.hash, x.attestation "
            + "FROM entries e JOIN executions x ON x.seq = e.seq ORDER BY e.seq")) {
      while (rs.next()) {
        for (int i = 1; i <= 6; i++) {
          out.append(rs.getString(i)).append('|');
        }
        out.append('\n');
      }
    }
    return out.toString();
  }

  static List<Path> filesContaining(Path dir, String needle) throws Exception {
    byte[] bytes = needle.getBytes(StandardCharsets.UTF_8);
    List<Path> hits = new ArrayList<>();
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        byte[] content = Files.readAllBytes(f);
        for (int i = 0; i + bytes.length <= content.length; i++) {
          if (java.util.Arrays.equals(content, i, i + bytes.length, bytes, 0, bytes.length)) {
            hits.add(f);
            break;
          }
        }
      }
    }
    return hits;
  }

  /** A clock tests move by hand. */
  static final class MutableClock extends Clock {
    volatile Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
