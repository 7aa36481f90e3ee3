package dev.capability.ledger.internal;

/** The SQL that reads records with their bodies, shared by verification, {@code show} and export. */
final class ChainRows {
  private ChainRows() {}

  /** Columns: seq, kind, recorded_at, prev_hash, hash, body (null when the record's table lacks its row). */
  static final String SELECT = """
      SELECT e.seq, e.kind, e.recorded_at, e.prev_hash, e.hash,
        CASE e.kind
          WHEN 'execution' THEN (SELECT attestation FROM executions WHERE seq = e.seq)
          WHEN 'decision' THEN (SELECT body FROM decisions WHERE seq = e.seq)
          WHEN 'plan' THEN (SELECT body FROM plans WHERE seq = e.seq)
          WHEN 'approval' THEN (SELECT body FROM approvals WHERE seq = e.seq)
          WHEN 'receipt' THEN (SELECT body FROM receipts WHERE seq = e.seq)
          WHEN 'acquisition' THEN (SELECT body FROM acquisitions WHERE seq = e.seq)
          WHEN 'contract' THEN (SELECT body FROM contracts WHERE seq = e.seq)
          WHEN 'work_plan' THEN (SELECT body FROM work_plans WHERE seq = e.seq)
          WHEN 'phase' THEN (SELECT body FROM phases WHERE seq = e.seq)
          WHEN 'assumption' THEN (SELECT body FROM assumptions WHERE seq = e.seq)
          WHEN 'correction' THEN (SELECT body FROM corrections WHERE seq = e.seq)
          WHEN 'evaluation' THEN (SELECT body FROM evaluations WHERE seq = e.seq)
        END AS body
      FROM entries e""";

  static final String ALL_IN_ORDER = SELECT + " ORDER BY e.seq";

  static final String ONE = SELECT + " WHERE e.seq = ?";
}
