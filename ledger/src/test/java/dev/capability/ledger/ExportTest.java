package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.kernel.api.json.CanonicalJson;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  Path db;

  @BeforeEach
  void ledgerWithRunsDenialsAndAPlan() {
    db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("git", "status"), 0, "clean"));
      ledger.record(Fixtures.denied(List.of("git", "-c", "core.pager=sh"), "no"));
      ledger.append(LedgerRecord.of(RecordKind.PLAN, Fixtures.plan("p-1")));
      ledger.record(Fixtures.completed(List.of("mvn", "-q", "verify", "ünïcode"), 1, "FAIL"));
    }
  }

  private List<String> export(ExportFormat format) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LedgerReader.open(db, Fixtures.options()).export(format, out);
    String text = out.toString(StandardCharsets.UTF_8);
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  @Test
  void jsonLinesAreCanonicalAndEnoughToRecomputeTheChain() throws Exception {
    List<String> lines = export(ExportFormat.JSONL);
    assertThat(lines).hasSize(4);
    String prev = null;
    for (String line : lines) {
      @SuppressWarnings("unchecked")
      Map<String, Object> record = JSON.readValue(line, Map.class);
      assertThat(CanonicalJson.serialize(record)).as("each line is canonical JSON").isEqualTo(line);
      if (prev != null) {
        assertThat(record.get("prevHash")).isEqualTo(prev);
      }
      Map<String, Object> envelope = new LinkedHashMap<>();
      envelope.put("body", record.get("body"));
      envelope.put("kind", record.get("kind"));
      envelope.put("recordedAt", record.get("recordedAt"));
      envelope.put("seq", record.get("seq"));
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(HexFormat.of().parseHex((String) record.get("prevHash")));
      digest.update(CanonicalJson.bytes(envelope));
      assertThat(record.get("hash")).isEqualTo(HexFormat.of().formatHex(digest.digest()));
      prev = (String) record.get("hash");
    }
  }

  @Test
  void inTotoStatementsValidateAgainstTheStatementSchemaInSignedEnvelopes() throws Exception {
    JsonSchema statementSchema = schema("/in-toto-statement-v1.schema.json");
    JsonSchema envelopeSchema = schema("/dsse-envelope.schema.json");
    PublicKey publicKey = publicKey(dir.resolve("ledger-key.pub"));
    List<String> lines = export(ExportFormat.INTOTO);

    assertThat(lines).as("executions only: two runs and a denial").hasSize(3);
    List<JsonNode> statements = new ArrayList<>();
    for (String line : lines) {
      JsonNode envelope = JSON.readTree(line);
      assertThat(envelopeSchema.validate(envelope)).isEmpty();
      assertThat(envelope.get("payloadType").asText()).isEqualTo("application/vnd.in-toto+json");
      byte[] payload = Base64.getDecoder().decode(envelope.get("payload").asText());
      JsonNode signature = envelope.get("signatures").get(0);
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(publicKey);
      verifier.update(pae("application/vnd.in-toto+json", payload));
      assertThat(verifier.verify(Base64.getDecoder().decode(signature.get("sig").asText()))).as("DSSE signature").isTrue();
      assertThat(signature.get("keyid").asText())
          .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(publicKey.getEncoded())));
      JsonNode statement = JSON.readTree(payload);
      assertThat(statementSchema.validate(statement)).as(statement.toString()).isEmpty();
      statements.add(statement);
    }
    JsonNode run = statements.get(2);
    assertThat(run.get("predicateType").asText()).isEqualTo("https://capability.dev/ledger/execution/v1");
    assertThat(run.get("predicate").get("attestation").get("argv").get(3).asText()).isEqualTo("ünïcode");
    assertThat(run.get("predicate").get("ledger").get("sequence").asLong()).isEqualTo(4);
    assertThat(run.get("subject").findValuesAsText("name")).containsExactly("command-spec", "/usr/bin/mvn", "stdout", "stderr");
    JsonNode denial = statements.get(1);
    assertThat(denial.get("subject").findValuesAsText("name")).containsExactly("command-spec");
  }

  @Test
  void theStatementSchemaRejectsWhatIsNotAStatement() throws Exception {
    JsonSchema schema = schema("/in-toto-statement-v1.schema.json");
    JsonNode good = JSON.readTree(Base64.getDecoder().decode(JSON.readTree(export(ExportFormat.INTOTO).get(0)).get("payload").asText()));
    assertThat(schema.validate(good)).isEmpty();
    for (String broken : List.of(
        "{\"_type\":\"https://in-toto.io/Statement/v0.1\",\"subject\":[{\"name\":\"a\",\"digest\":{\"sha256\":\"" + "0".repeat(64) + "\"}}],\"predicateType\":\"https://x/y\",\"predicate\":{}}",
        "{\"_type\":\"https://in-toto.io/Statement/v1\",\"subject\":[],\"predicateType\":\"https://x/y\",\"predicate\":{}}",
        "{\"_type\":\"https://in-toto.io/Statement/v1\",\"subject\":[{\"name\":\"a\",\"digest\":{\"sha256\":\"XYZ\"}}],\"predicateType\":\"https://x/y\",\"predicate\":{}}",
        "{\"_type\":\"https://in-toto.io/Statement/v1\",\"subject\":[{\"name\":\"a\",\"digest\":{}}],\"predicateType\":\"https://x/y\",\"predicate\":{}}",
        "{\"_type\":\"https://in-toto.io/Statement/v1\",\"subject\":[{\"name\":\"a\",\"digest\":{\"sha256\":\"" + "0".repeat(64) + "\"}}],\"predicate\":{}}")) {
      assertThat(schema.validate(JSON.readTree(broken))).as(broken).isNotEmpty();
    }
  }

  @Test
  void executionsNotYetCoveredByACheckpointAreNotSigned() {
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("late"), 0, ""));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThat(ledger.reader().export(ExportFormat.INTOTO, out)).isEqualTo(3);
      ledger.checkpoint();
      assertThat(ledger.reader().export(ExportFormat.INTOTO, new ByteArrayOutputStream())).isEqualTo(4);
    }
  }

  @Test
  void aTamperedLedgerIsNotSignedButCanStillBeDumped() throws Exception {
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE executions SET attestation = replace(attestation, 'clean', 'dirty') WHERE seq = 1");
      s.executeUpdate("UPDATE executions SET attestation = replace(attestation, '\"exitCode\":0', '\"exitCode\":3') WHERE seq = 1");
    }
    assertThatThrownBy(() -> export(ExportFormat.INTOTO)).isInstanceOf(LedgerException.class)
        .hasMessageContaining("CHAIN_BROKEN").extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_NOT_INTACT");
    assertThat(export(ExportFormat.JSONL)).hasSize(4);
  }

  static byte[] pae(String type, byte[] body) {
    byte[] head = ("DSSEv1 " + type.getBytes(StandardCharsets.UTF_8).length + " " + type + " " + body.length + " ")
        .getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[head.length + body.length];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(body, 0, out, head.length, body.length);
    return out;
  }

  static PublicKey publicKey(Path pem) throws Exception {
    String text = Files.readString(pem).replace("-----BEGIN PUBLIC KEY-----", "").replace("-----END PUBLIC KEY-----", "")
        .replaceAll("\\s", "");
    return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(text)));
  }

  static JsonSchema schema(String resource) throws Exception {
    try (InputStream in = ExportTest.class.getResourceAsStream(resource)) {
      return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
    }
  }
}
