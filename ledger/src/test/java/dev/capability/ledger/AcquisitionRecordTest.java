package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import dev.capability.kernel.api.Sha256;
import dev.capability.ledger.LedgerVerification.Status;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PublicKey;
import java.security.Signature;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Acquisition records: what they must hold, how they are queried, and that the chain covers them. */
class AcquisitionRecordTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  static final String HELLO_SHA256 = Sha256.hex("hello package".getBytes(StandardCharsets.UTF_8));
  static final String TAMPERED_SHA256 = Sha256.hex("tampered package".getBytes(StandardCharsets.UTF_8));

  /** A body shaped as {@code Acquisition.toJson()} writes it. */
  static Map<String, Object> acquisition(String coordinates, String sha256, boolean accepted, String code) {
    Map<String, Object> decision = new LinkedHashMap<>();
    decision.put("accepted", accepted);
    decision.put("code", code);
    decision.put("policy", accepted ? "strict" : "verification");
    decision.put("reason", accepted ? "every check passed" : "the SHA-512 differs from the repository's");
    Map<String, Object> integrity = new LinkedHashMap<>();
    integrity.put("status", accepted ? "VERIFIED" : "FAILED");
    integrity.put("code", accepted ? null : code);
    integrity.put("detail", "sha512 of the artifact against hello-1.0.0.zip.sha512");
    Map<String, Object> observations = new LinkedHashMap<>();
    observations.put("source", "https://repo.example.com/maven2/");
    observations.put("fetched", List.of(Map.of("location", "https://repo.example.com/maven2/hello-1.0.0.zip", "found", true,
        "size", 1234, "sha256", sha256)));
    observations.put("integrity", integrity);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("coordinates", coordinates);
    body.put("stored", accepted ? "/store/sha256/" + sha256 : null);
    body.put("sha256", sha256);
    body.put("sha512", "00".repeat(64));
    body.put("size", 1234L);
    body.put("decision", decision);
    body.put("observations", observations);
    body.put("score", Map.of("total", 85, "max", 100, "advisory", true, "components", List.of()));
    return body;
  }

  private Path ledgerWithTwoAcquisitions() {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
      ledger.append(LedgerRecord.of(RecordKind.ACQUISITION, acquisition("com.example:hello:1.0.0@zip", HELLO_SHA256, true, "ACQUIRED")));
      ledger.append(LedgerRecord.of(RecordKind.ACQUISITION,
          acquisition("com.example:hello:1.0.1@zip", TAMPERED_SHA256, false, "CHECKSUM_MISMATCH")));
    }
    return db;
  }

  @Test
  void acquisitionsAreChainedAndListedWithTheirCoordinatesDigestAndDecision() {
    Path db = ledgerWithTwoAcquisitions();
    LedgerReader reader = LedgerReader.open(db, Fixtures.options());

    LedgerVerification v = reader.verify();
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(v.records()).isEqualTo(3);
    assertThat(reader.list(LedgerQuery.latest(10)))
        .extracting(EntrySummary::sequence, EntrySummary::kind, EntrySummary::status, EntrySummary::coordinates,
            EntrySummary::sha256, EntrySummary::decisionCode)
        .containsExactly(
            Tuple.tuple(3L, RecordKind.ACQUISITION, "REFUSED", "com.example:hello:1.0.1@zip", TAMPERED_SHA256, "CHECKSUM_MISMATCH"),
            Tuple.tuple(2L, RecordKind.ACQUISITION, "ACQUIRED", "com.example:hello:1.0.0@zip", HELLO_SHA256, "ACQUIRED"),
            Tuple.tuple(1L, RecordKind.EXECUTION, "COMPLETED", null, null, null));
    assertThat(reader.list(LedgerQuery.latest(10).kind(RecordKind.ACQUISITION).status("REFUSED")))
        .extracting(EntrySummary::sequence).containsExactly(3L);
    assertThat(reader.list(LedgerQuery.latest(10).status("ACQUIRED"))).extracting(EntrySummary::sequence).containsExactly(2L);

    LedgerEntry shown = reader.show(3).orElseThrow();
    assertThat(shown.kind()).isEqualTo(RecordKind.ACQUISITION);
    assertThat(shown.hashMatches()).isTrue();
    assertThat(shown.body()).containsEntry("coordinates", "com.example:hello:1.0.1@zip").containsEntry("stored", null);
    assertThat(shown.body().get("decision")).isEqualTo(Map.of("accepted", false, "code", "CHECKSUM_MISMATCH", "policy", "verification",
        "reason", "the SHA-512 differs from the repository's"));
  }

  @Test
  void theAcquisitionsTableAnswersByDigestThroughItsIndex() throws Exception {
    Path db = ledgerWithTwoAcquisitions();
    try (Connection c = Fixtures.raw(db)) {
      List<String> rows = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT seq, coordinates, sha256, accepted, code, policy, size, stored FROM acquisitions ORDER BY seq")) {
        while (rs.next()) {
          rows.add(rs.getLong(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getInt(4) + " " + rs.getString(5) + " "
              + rs.getString(6) + " " + rs.getLong(7) + " " + rs.getString(8));
        }
      }
      assertThat(rows).containsExactly(
          "2 com.example:hello:1.0.0@zip " + HELLO_SHA256 + " 1 ACQUIRED strict 1234 /store/sha256/" + HELLO_SHA256,
          "3 com.example:hello:1.0.1@zip " + TAMPERED_SHA256 + " 0 CHECKSUM_MISMATCH verification 1234 null");
      try (PreparedStatement s = c.prepareStatement("EXPLAIN QUERY PLAN SELECT seq FROM acquisitions WHERE sha256 = ?")) {
        s.setString(1, HELLO_SHA256);
        StringBuilder plan = new StringBuilder();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            plan.append(rs.getString("detail")).append('\n');
          }
        }
        assertThat(plan.toString()).contains("acquisitions_sha256");
      }
    }
  }

  @Test
  void aRefusalTurnedIntoAnAcceptanceInTheDatabaseBreaksTheChainThere() throws Exception {
    Path db = ledgerWithTwoAcquisitions();
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      int changed = s.executeUpdate("UPDATE acquisitions SET body = replace(replace(body, '\"accepted\":false', '\"accepted\":true'),"
          + " 'CHECKSUM_MISMATCH', 'ACQUIRED') WHERE seq = 3");
      assertThat(changed).isEqualTo(1);
    }
    LedgerReader reader = LedgerReader.open(db, Fixtures.options());

    LedgerVerification v = reader.verify();
    assertThat(v.status()).isEqualTo(Status.CHAIN_BROKEN);
    assertThat(v.sequence()).isEqualTo(3);
    assertThat(v.message()).contains("does not match its hash");
    assertThat(reader.show(3).orElseThrow().hashMatches()).isFalse();
  }

  @Test
  void anAcquisitionRowOutsideTheChainIsFound() throws Exception {
    Path db = ledgerWithTwoAcquisitions();
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO acquisitions (seq, body) SELECT 1, body FROM acquisitions WHERE seq = 2");
    }

    LedgerVerification v = LedgerReader.open(db, Fixtures.options()).verify();

    assertThat(v.status()).isEqualTo(Status.UNCHAINED_RECORD);
    assertThat(v.sequence()).isEqualTo(1);
    assertThat(v.message()).contains("acquisitions");
  }

  @Test
  void theJsonLinesExportCarriesAcquisitionsAsStored() {
    Path db = ledgerWithTwoAcquisitions();
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    long written = LedgerReader.open(db, Fixtures.options()).export(ExportFormat.JSONL, out);

    assertThat(written).isEqualTo(3);
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines.get(1)).startsWith("{\"body\":{\"coordinates\":\"com.example:hello:1.0.0@zip\"")
        .contains("\"kind\":\"acquisition\"").contains("\"sha256\":\"" + HELLO_SHA256 + "\"");
  }

  @Test
  void theSignedExportStatesEachAcquisitionAboutThePackageDigests() throws Exception {
    Path db = ledgerWithTwoAcquisitions();
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    long written = LedgerReader.open(db, Fixtures.options()).export(ExportFormat.INTOTO, out);

    assertThat(written).as("the execution and both acquisitions").isEqualTo(3);
    JsonSchema schema = ExportTest.schema("/in-toto-statement-v1.schema.json");
    PublicKey publicKey = ExportTest.publicKey(dir.resolve("ledger-key.pub"));
    List<JsonNode> statements = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).lines().toList()) {
      JsonNode envelope = JSON.readTree(line);
      byte[] payload = Base64.getDecoder().decode(envelope.get("payload").asText());
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(publicKey);
      verifier.update(ExportTest.pae("application/vnd.in-toto+json", payload));
      assertThat(verifier.verify(Base64.getDecoder().decode(envelope.get("signatures").get(0).get("sig").asText()))).isTrue();
      JsonNode statement = JSON.readTree(payload);
      assertThat(schema.validate(statement)).as(statement.toString()).isEmpty();
      statements.add(statement);
    }
    JsonNode refused = statements.get(2);
    assertThat(refused.get("predicateType").asText()).isEqualTo("https://capability.dev/ledger/acquisition/v1");
    assertThat(refused.get("subject")).hasSize(1);
    assertThat(refused.get("subject").get(0).get("name").asText()).isEqualTo("com.example:hello:1.0.1@zip");
    assertThat(refused.get("subject").get(0).get("digest").get("sha256").asText()).isEqualTo(TAMPERED_SHA256);
    assertThat(refused.get("subject").get(0).get("digest").get("sha512").asText()).isEqualTo("00".repeat(64));
    assertThat(refused.get("predicate").get("acquisition").get("decision").get("accepted").asBoolean()).isFalse();
    assertThat(refused.get("predicate").get("ledger").get("sequence").asLong()).isEqualTo(3);
    assertThat(statements.get(0).get("predicateType").asText()).isEqualTo("https://capability.dev/ledger/execution/v1");
  }

  @Test
  void anAcquisitionNeedsCoordinatesADigestAndADecisionWithAcceptedAndCode() {
    Map<String, Object> valid = acquisition("com.example:hello:1.0.0@zip", HELLO_SHA256, true, "ACQUIRED");
    assertThat(LedgerRecord.of(RecordKind.ACQUISITION, valid).body()).containsEntry("sha256", HELLO_SHA256);

    assertRefused(without(valid, "coordinates"), "non-empty string member 'coordinates'");
    assertRefused(with(valid, "coordinates", ""), "non-empty string member 'coordinates'");
    assertRefused(without(valid, "sha256"), "non-empty string member 'sha256'");
    assertRefused(with(valid, "sha256", 7), "non-empty string member 'sha256'");
    assertRefused(without(valid, "decision"), "object member 'decision'");
    assertRefused(with(valid, "decision", "ACQUIRED"), "object member 'decision'");
    assertRefused(with(valid, "decision", Map.of("code", "ACQUIRED")), "boolean member 'decision.accepted'");
    assertRefused(with(valid, "decision", Map.of("accepted", "true", "code", "ACQUIRED")), "boolean member 'decision.accepted'");
    assertRefused(with(valid, "decision", Map.of("accepted", true)), "string member 'decision.code'");
    assertRefused(with(valid, "decision", Map.of("accepted", false, "code", "")), "string member 'decision.code'");
  }

  @Test
  void aRefusedAcquisitionRecordLeavesNoTraceInTheLedger() {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      Map<String, Object> unserializable = with(acquisition("com.example:hello:1.0.0@zip", HELLO_SHA256, true, "ACQUIRED"),
          "size", Double.NaN);
      assertThatThrownBy(() -> ledger.append(LedgerRecord.of(RecordKind.ACQUISITION, unserializable)))
          .isInstanceOf(LedgerException.class).hasMessageContaining("canonical");
      assertThat(ledger.append(LedgerRecord.of(RecordKind.ACQUISITION,
          acquisition("com.example:hello:1.0.0@zip", HELLO_SHA256, true, "ACQUIRED"))).sequence()).isEqualTo(1);
    }
    assertThat(LedgerReader.open(db, Fixtures.options()).verify().intact()).isTrue();
  }

  private static void assertRefused(Map<String, Object> body, String message) {
    assertThatThrownBy(() -> LedgerRecord.of(RecordKind.ACQUISITION, body))
        .isInstanceOf(LedgerException.class).hasMessageContaining(message)
        .extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_RECORD_INVALID");
  }

  private static Map<String, Object> without(Map<String, Object> body, String name) {
    Map<String, Object> copy = new LinkedHashMap<>(body);
    copy.remove(name);
    return copy;
  }

  private static Map<String, Object> with(Map<String, Object> body, String name, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(body);
    copy.put(name, value);
    return copy;
  }
}
