package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerException;
import dev.capability.ledger.LedgerVerification;
import dev.capability.ledger.LedgerVerification.Finding;
import dev.capability.ledger.LedgerVerification.Status;
import dev.capability.ledger.RecordKind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Walks the chain from record 1 and checks it against the signed checkpoints. Integrity: every
 * record is where its sequence says, links to its predecessor's hash, hashes to its stored hash,
 * and agrees with every checkpoint at its sequence; no row of a record table stands outside the
 * chain; SQLite's own check passes. Completeness: no checkpoint covers a record that is gone.
 */
public final class ChainVerifier {
  private final Path db;
  private final CheckpointLog checkpoints;
  private final Path publicKeyFile;

  public ChainVerifier(Path db, CheckpointLog checkpoints, Path publicKeyFile) {
    this.db = db;
    this.checkpoints = checkpoints;
    this.publicKeyFile = publicKeyFile;
  }

  /**
   * Verifies within one read transaction, so concurrent appends do not shift what is checked.
   * With {@code checkStorage}, SQLite's {@code PRAGMA quick_check} runs too: it reads every page,
   * indexes included, where the walk reads the records' pages only.
   */
  public LedgerVerification verify(Connection c, boolean checkStorage) {
    try {
      Migrator.execute(c, "BEGIN");
      try {
        return verifyInSnapshot(c, checkStorage);
      } finally {
        Migrator.rollbackQuietly(c);
      }
    } catch (SQLException e) {
      if (SqliteErrors.isCorrupt(e)) {
        return corrupt(e.getMessage());
      }
      throw SqliteErrors.translate(e, db, "verifying");
    }
  }

  private LedgerVerification verifyInSnapshot(Connection c, boolean checkStorage) throws SQLException {
    String ledgerId = LedgerMeta.readOrThrow(c, db).ledgerId();
    String genesis = ChainHash.genesis(ledgerId);
    List<String> problems = new ArrayList<>();
    Map<Long, Checkpoint> bySequence = validCheckpoints(ledgerId, problems);
    boolean haveCheckpoints = !bySequence.isEmpty();

    Finding integrity = null;
    if (checkStorage) {
      String storage = LedgerDatabase.stringQuery(c, "PRAGMA quick_check");
      if (!"ok".equals(storage)) {
        integrity = new Finding(Status.STORAGE_CORRUPT, 0, "SQLite's check of " + db + " failed: " + storage);
      }
    }

    Walk walk = walk(c, genesis, bySequence);
    if (integrity == null) {
      integrity = walk.broken;
    }
    if (integrity == null) {
      integrity = Finding.intact("all " + walk.records + " records chain from the genesis hash"
          + (haveCheckpoints ? " and agree with every checkpoint" : ""));
    }
    long stored = storedHead(c);
    long covered = bySequence.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    Finding completeness;
    if (covered > stored) {
      Checkpoint cp = bySequence.get(covered);
      completeness = new Finding(Status.TRUNCATED_BELOW_CHECKPOINT, stored + 1, "the checkpoint of " + cp.time()
          + " covers records up to " + covered + ", but the ledger ends at " + stored + ": records " + (stored + 1)
          + " to " + covered + " are gone");
    } else if (!problems.isEmpty()) {
      completeness = new Finding(Status.CHECKPOINT_INVALID, 0, problems.get(0)
          + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : ""));
    } else if (!haveCheckpoints) {
      completeness = new Finding(Status.NO_CHECKPOINT, 0, "no checkpoint of this ledger in " + checkpoints.file()
          + ", so missing records cannot be detected");
    } else {
      completeness = Finding.intact("every record up to checkpoint " + covered + " is present; "
          + Math.max(0, stored - covered) + " newer records are not yet covered by a checkpoint");
    }
    return new LedgerVerification(integrity, completeness, walk.records, stored, walk.headHash, covered, Math.max(0, stored - covered));
  }

  private Map<Long, Checkpoint> validCheckpoints(String ledgerId, List<String> problems) {
    CheckpointLog.Contents contents = checkpoints.read();
    problems.addAll(contents.problems());
    Map<Long, Checkpoint> bySequence = new HashMap<>();
    if (contents.checkpoints().isEmpty()) {
      return bySequence;
    }
    LedgerPublicKey key;
    try {
      key = LedgerPublicKey.load(publicKeyFile);
    } catch (LedgerException e) {
      problems.add("cannot check the checkpoints' signatures: " + e.getMessage());
      return bySequence;
    }
    for (Checkpoint cp : contents.checkpoints()) {
      if (!cp.ledgerId().equals(ledgerId)) {
        problems.add("a checkpoint in " + checkpoints.file() + " belongs to ledger " + cp.ledgerId() + ", not " + ledgerId);
      } else if (!cp.signatureValid(key)) {
        problems.add("the checkpoint of sequence " + cp.sequence() + " in " + checkpoints.file()
            + " is not signed by the ledger key " + key.keyId());
      } else {
        Checkpoint other = bySequence.putIfAbsent(cp.sequence(), cp);
        if (other != null && !other.headHash().equals(cp.headHash())) {
          problems.add("two signed checkpoints of sequence " + cp.sequence() + " name different hashes");
        }
      }
    }
    return bySequence;
  }

  private static final class Walk {
    long records;
    String headHash;
    Finding broken;
  }

  /**
   * One record table read in sequence order beside the chain: a merge join of sequential scans,
   * where a lookup per record would seek. Rows the chain never asks for are strays.
   */
  private static final class BodyCursor implements AutoCloseable {
    final RecordKind kind;
    final PreparedStatement statement;
    final ResultSet rows;
    long current;
    long firstStray = Long.MAX_VALUE;

    BodyCursor(Connection c, RecordKind kind) throws SQLException {
      this.kind = kind;
      this.statement = c.prepareStatement("SELECT seq, " + Schema.bodyColumn(kind.table()) + " FROM " + kind.table() + " ORDER BY seq");
      this.rows = statement.executeQuery();
      advance();
    }

    private void advance() throws SQLException {
      current = rows.next() ? rows.getLong(1) : Long.MAX_VALUE;
    }

    /** The body of record {@code seq}, or null when this table has none. */
    byte[] bodyOf(long seq) throws SQLException {
      while (current < seq) {
        firstStray = Math.min(firstStray, current);
        advance();
      }
      if (current != seq) {
        return null;
      }
      byte[] body = rows.getBytes(2);
      advance();
      return body;
    }

    /** The first row that belongs to no record of this kind, once the chain was read to its end. */
    long strayAfterEnd() throws SQLException {
      bodyOf(Long.MAX_VALUE - 1);
      return firstStray;
    }

    @Override
    public void close() throws SQLException {
      try {
        rows.close();
      } finally {
        statement.close();
      }
    }
  }

  private Walk walk(Connection c, String genesis, Map<Long, Checkpoint> bySequence) throws SQLException {
    Walk walk = new Walk();
    walk.headHash = genesis;
    Checkpoint genesisCheckpoint = bySequence.get(0L);
    if (genesisCheckpoint != null && !genesisCheckpoint.headHash().equals(genesis)) {
      walk.broken = new Finding(Status.CHECKPOINT_MISMATCH, 0, "the signed genesis hash differs from this ledger's");
      return walk;
    }
    Map<String, BodyCursor> cursors = new HashMap<>();
    try (PreparedStatement s = c.prepareStatement("SELECT seq, kind, recorded_at, prev_hash, hash FROM entries ORDER BY seq");
        ResultSet rs = s.executeQuery()) {
      for (RecordKind kind : RecordKind.values()) {
        cursors.put(kind.id(), new BodyCursor(c, kind));
      }
      ChainHash.Hasher hasher = new ChainHash.Hasher();
      byte[] prevRaw = HexFormat.of().parseHex(genesis);
      long expected = 1;
      while (rs.next()) {
        long seq = rs.getLong(1);
        String kind = rs.getString(2);
        if (seq != expected) {
          walk.broken = new Finding(Status.CHAIN_BROKEN, expected, seq > expected
              ? "record " + expected + " is missing (the next stored record is " + seq + ")"
              : "record " + seq + " is out of place");
          return walk;
        }
        if (!walk.headHash.equals(rs.getString(4))) {
          walk.broken = new Finding(Status.CHAIN_BROKEN, seq, "record " + seq + " does not link to the hash of record " + (seq - 1));
          return walk;
        }
        BodyCursor cursor = cursors.get(kind);
        byte[] body = cursor == null ? null : cursor.bodyOf(seq);
        if (body == null) {
          walk.broken = new Finding(Status.CHAIN_BROKEN, seq, "record " + seq + " (" + kind + ") has no body in its table");
          return walk;
        }
        byte[] raw = hasher.hash(prevRaw, seq, kind, rs.getString(3), body);
        String hash = HexFormat.of().formatHex(raw);
        if (!hash.equals(rs.getString(5))) {
          walk.broken = new Finding(Status.CHAIN_BROKEN, seq, "record " + seq + " does not match its hash: it was changed");
          return walk;
        }
        Checkpoint cp = bySequence.isEmpty() ? null : bySequence.get(seq);
        if (cp != null && !cp.headHash().equals(hash)) {
          walk.broken = new Finding(Status.CHECKPOINT_MISMATCH, seq, "record " + seq + " differs from what the checkpoint of "
              + cp.time() + " signed: the chain was rewritten");
          return walk;
        }
        walk.records = seq;
        walk.headHash = hash;
        prevRaw = raw;
        expected++;
      }
      walk.broken = strays(cursors);
      return walk;
    } finally {
      for (BodyCursor cursor : cursors.values()) {
        cursor.close();
      }
    }
  }

  /** A row in a record table whose sequence is not a record of that kind in the chain. */
  private static Finding strays(Map<String, BodyCursor> cursors) throws SQLException {
    Finding first = null;
    for (BodyCursor cursor : cursors.values()) {
      long stray = cursor.strayAfterEnd();
      if (stray != Long.MAX_VALUE && (first == null || stray < first.sequence())) {
        first = new Finding(Status.UNCHAINED_RECORD, stray, "the " + cursor.kind.table() + " table holds a row " + stray
            + " that is no " + cursor.kind.id() + " record of the chain");
      }
    }
    return first;
  }

  private static long storedHead(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT max(seq) FROM entries"); ResultSet rs = s.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private LedgerVerification corrupt(String message) {
    return new LedgerVerification(new Finding(Status.STORAGE_CORRUPT, 0, "SQLite reports " + db + " corrupted: " + message),
        new Finding(Status.CHECKPOINT_INVALID, 0, "completeness cannot be checked in a corrupted file"), 0, 0, "", 0, 0);
  }
}
