package dev.capability.ledger.internal;

import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Writes records as JSON lines, or executions and acquisitions as in-toto Statements in signed DSSE envelopes. */
public final class Exporter {
  /** The in-toto Statement type, v1. */
  public static final String STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
  /** The predicate type of an exported execution. */
  public static final String PREDICATE_TYPE = "https://capability.dev/ledger/execution/v1";
  /** The predicate type of an exported acquisition. */
  public static final String ACQUISITION_PREDICATE_TYPE = "https://capability.dev/ledger/acquisition/v1";
  /** The DSSE payload type of an in-toto Statement. */
  public static final String PAYLOAD_TYPE = "application/vnd.in-toto+json";

  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern SHA512 = Pattern.compile("[0-9a-f]{128}");
  private static final Set<String> RAN = Set.of(
      "COMPLETED", "TIMED_OUT", "OUTPUT_LIMIT", "MEMORY_LIMIT", "PROCESS_LIMIT", "FILE_SIZE_LIMIT", "WRITE_LIMIT");

  private final Path db;

  public Exporter(Path db) {
    this.db = db;
  }

  /**
   * Every record, in order, as the canonical JSON of {@code {"body", "hash", "kind", "prevHash",
   * "recordedAt", "seq"}}, one a line. The stored body is canonical already, so it is copied
   * verbatim and the line is canonical too.
   */
  public long jsonl(Connection c, OutputStream out) {
    long count = 0;
    try (PreparedStatement s = c.prepareStatement(ChainRows.ALL_IN_ORDER); ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        byte[] body = rs.getBytes(6);
        if (body == null) {
          throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, "record " + rs.getLong(1) + " of " + db + " has no body in its table");
        }
        out.write("{\"body\":".getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        String rest = ",\"hash\":" + CanonicalJson.serialize(rs.getString(5))
            + ",\"kind\":" + CanonicalJson.serialize(rs.getString(2))
            + ",\"prevHash\":" + CanonicalJson.serialize(rs.getString(4))
            + ",\"recordedAt\":" + CanonicalJson.serialize(rs.getString(3))
            + ",\"seq\":" + rs.getLong(1) + "}\n";
        out.write(rest.getBytes(StandardCharsets.UTF_8));
        count++;
      }
      out.flush();
      return count;
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "exporting");
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot write the export of " + db + ": " + e.getMessage(), e);
    }
  }

  /**
   * Every execution and acquisition up to {@code throughSequence}, in order, as a DSSE envelope
   * (one a line) around an in-toto Statement v1 whose predicate is the record's body and its place
   * in the ledger.
   */
  public long intoto(Connection c, OutputStream out, LedgerKey key, String ledgerId, long throughSequence) {
    long count = 0;
    String sql = ChainRows.SELECT + " WHERE e.kind IN ('execution', 'acquisition') AND e.seq <= ? ORDER BY e.seq";
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setLong(1, throughSequence);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          long seq = rs.getLong(1);
          byte[] body = rs.getBytes(6);
          if (body == null) {
            throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, "record " + seq + " of " + db + " has no body in its table");
          }
          Map<String, Object> record = Json.object(new String(body, StandardCharsets.UTF_8), "the body of record " + seq);
          Map<String, Object> ledger = new LinkedHashMap<>();
          ledger.put("ledgerId", ledgerId);
          ledger.put("sequence", seq);
          ledger.put("hash", rs.getString(5));
          ledger.put("recordedAt", rs.getString(3));
          Map<String, Object> statement = "acquisition".equals(rs.getString(2))
              ? acquisitionStatement(record, ledger) : statement(record, ledger);
          byte[] payload = CanonicalJson.bytes(statement);
          out.write(envelope(payload, key).getBytes(StandardCharsets.UTF_8));
          out.write('\n');
          count++;
        }
      }
      out.flush();
      return count;
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "exporting");
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot write the export of " + db + ": " + e.getMessage(), e);
    }
  }

  static Map<String, Object> statement(Map<String, Object> attestation, Map<String, Object> ledger) {
    Map<String, Object> predicate = new LinkedHashMap<>();
    predicate.put("attestation", attestation);
    predicate.put("ledger", ledger);
    Map<String, Object> statement = new LinkedHashMap<>();
    statement.put("_type", STATEMENT_TYPE);
    statement.put("subject", subjects(attestation, ledger));
    statement.put("predicateType", PREDICATE_TYPE);
    statement.put("predicate", predicate);
    return statement;
  }

  /**
   * An acquisition's statement: its subject is the package, named by its coordinates, with the
   * digests observed; the predicate is everything the acquisition observed and decided.
   */
  static Map<String, Object> acquisitionStatement(Map<String, Object> acquisition, Map<String, Object> ledger) {
    Map<String, Object> digest = new LinkedHashMap<>();
    if (acquisition.get("sha256") instanceof String hex && SHA256.matcher(hex).matches()) {
      digest.put("sha256", hex);
    }
    if (acquisition.get("sha512") instanceof String hex && SHA512.matcher(hex).matches()) {
      digest.put("sha512", hex);
    }
    List<Map<String, Object>> subjects = new ArrayList<>();
    if (!digest.isEmpty() && acquisition.get("coordinates") instanceof String coordinates) {
      Map<String, Object> subject = new LinkedHashMap<>();
      subject.put("name", coordinates);
      subject.put("digest", digest);
      subjects.add(subject);
    } else {
      addSubject(subjects, "ledger:" + ledger.get("ledgerId") + "#" + ledger.get("sequence"), ledger.get("hash"));
    }
    Map<String, Object> predicate = new LinkedHashMap<>();
    predicate.put("acquisition", acquisition);
    predicate.put("ledger", ledger);
    Map<String, Object> statement = new LinkedHashMap<>();
    statement.put("_type", STATEMENT_TYPE);
    statement.put("subject", subjects);
    statement.put("predicateType", ACQUISITION_PREDICATE_TYPE);
    statement.put("predicate", predicate);
    return statement;
  }

  /**
   * What the statement is about: the command as specified, the executable that ran, and what it
   * wrote. Digests a redaction replaced are left out; a statement always has at least the ledger
   * record itself.
   */
  private static List<Map<String, Object>> subjects(Map<String, Object> attestation, Map<String, Object> ledger) {
    List<Map<String, Object>> subjects = new ArrayList<>();
    addSubject(subjects, "command-spec", attestation.get("commandSpecHash"));
    if (attestation.get("executable") instanceof Map<?, ?> executable && executable.get("path") instanceof String path) {
      addSubject(subjects, path, executable.get("sha256"));
    }
    if (RAN.contains(attestation.get("status"))) {
      for (String stream : List.of("stdout", "stderr")) {
        if (attestation.get(stream) instanceof Map<?, ?> digest) {
          addSubject(subjects, stream, digest.get("sha256"));
        }
      }
    }
    if (subjects.isEmpty()) {
      addSubject(subjects, "ledger:" + ledger.get("ledgerId") + "#" + ledger.get("sequence"), ledger.get("hash"));
    }
    return subjects;
  }

  private static void addSubject(List<Map<String, Object>> subjects, String name, Object sha256) {
    if (sha256 instanceof String hex && SHA256.matcher(hex).matches()) {
      Map<String, Object> subject = new LinkedHashMap<>();
      subject.put("name", name);
      subject.put("digest", Map.of("sha256", hex));
      subjects.add(subject);
    }
  }

  /** A DSSE envelope: the signature is over PAE("DSSEv1", payloadType, payload). */
  static String envelope(byte[] payload, LedgerKey key) {
    Map<String, Object> signature = new LinkedHashMap<>();
    signature.put("keyid", key.publicKey().keyId());
    signature.put("sig", Base64.getEncoder().encodeToString(key.sign(preAuthenticationEncoding(PAYLOAD_TYPE, payload))));
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("payload", Base64.getEncoder().encodeToString(payload));
    envelope.put("payloadType", PAYLOAD_TYPE);
    envelope.put("signatures", List.of(signature));
    return CanonicalJson.serialize(envelope);
  }

  /** DSSE's PAE: {@code "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body}, lengths in ASCII decimal bytes. */
  public static byte[] preAuthenticationEncoding(String payloadType, byte[] payload) {
    byte[] type = payloadType.getBytes(StandardCharsets.UTF_8);
    byte[] head = ("DSSEv1 " + type.length + " " + payloadType + " " + payload.length + " ").getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[head.length + payload.length];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(payload, 0, out, head.length, payload.length);
    return out;
  }
}
