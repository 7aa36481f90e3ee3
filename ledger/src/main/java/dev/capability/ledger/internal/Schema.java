package dev.capability.ledger.internal;

import java.util.List;

/**
 * The database schema, as forward migrations keyed by {@code PRAGMA user_version}. A migration
 * only adds (tables, generated columns, indexes, views); none rewrites a stored record, so
 * opening an older ledger never changes its history. Released migrations are never edited: a
 * change is a new version.
 *
 * <p>Every queryable column of a record table is a virtual column generated from the stored
 * canonical JSON, so it cannot disagree with what the chain covers, and a new field needs no
 * migration at all: it is in the body.
 */
public final class Schema {
  /** {@code PRAGMA application_id} of a ledger: "CAPL". */
  public static final int APPLICATION_ID = 0x4341504c;

  /** The {@code format} row of {@code ledger_meta}. */
  public static final String FORMAT = "capability-ledger";

  /** One forward step: the statements that take a database from {@code version - 1} to {@code version}. */
  public record Migration(int version, List<String> statements) {
    public Migration {
      statements = List.copyOf(statements);
    }
  }

  private static final List<Migration> MIGRATIONS = List.of(
      new Migration(1, List.of(
          """
          CREATE TABLE ledger_meta (
            name  TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
          ) STRICT, WITHOUT ROWID""",
          """
          CREATE TABLE entries (
            seq         INTEGER PRIMARY KEY NOT NULL CHECK (seq >= 1),
            kind        TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            prev_hash   TEXT NOT NULL,
            hash        TEXT NOT NULL
          ) STRICT""",
          "CREATE INDEX entries_recorded_at ON entries (recorded_at)",
          "CREATE INDEX entries_kind ON entries (kind, seq)",
          """
          CREATE TABLE executions (
            seq               INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            attestation       TEXT NOT NULL CHECK (typeof(attestation) = 'text'),
            status            TEXT AS (json_extract(attestation, '$.status')) VIRTUAL,
            started_at        TEXT AS (json_extract(attestation, '$.startedAt')) VIRTUAL,
            finished_at       TEXT AS (json_extract(attestation, '$.finishedAt')) VIRTUAL,
            argv              TEXT AS (json_extract(attestation, '$.argv')) VIRTUAL,
            executable        TEXT AS (json_extract(attestation, '$.executable.path')) VIRTUAL,
            executable_sha256 TEXT AS (json_extract(attestation, '$.executable.sha256')) VIRTUAL,
            backend           TEXT AS (json_extract(attestation, '$.backend.id')) VIRTUAL,
            exit_code         INTEGER AS (json_extract(attestation, '$.exitCode')) VIRTUAL,
            policy_hash       TEXT AS (json_extract(attestation, '$.policyHash')) VIRTUAL,
            command_spec_hash TEXT AS (json_extract(attestation, '$.commandSpecHash')) VIRTUAL,
            allowed           INTEGER AS (json_extract(attestation, '$.decision.allowed')) VIRTUAL,
            decision_code     TEXT AS (json_extract(attestation, '$.decision.code')) VIRTUAL,
            decision_layer    TEXT AS (json_extract(attestation, '$.decision.layer')) VIRTUAL,
            decision_rule     TEXT AS (json_extract(attestation, '$.decision.rule')) VIRTUAL
          )""",
          "CREATE INDEX executions_status ON executions (status)",
          """
          CREATE TABLE decisions (
            seq         INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body        TEXT NOT NULL CHECK (typeof(body) = 'text'),
            decided_at  TEXT AS (json_extract(body, '$.decidedAt')) VIRTUAL,
            argv        TEXT AS (json_extract(body, '$.argv')) VIRTUAL,
            allowed     INTEGER AS (json_extract(body, '$.decision.allowed')) VIRTUAL,
            code        TEXT AS (json_extract(body, '$.decision.code')) VIRTUAL,
            layer       TEXT AS (json_extract(body, '$.decision.layer')) VIRTUAL,
            rule        TEXT AS (json_extract(body, '$.decision.rule')) VIRTUAL,
            policy_hash TEXT AS (json_extract(body, '$.policyHash')) VIRTUAL,
            executable  TEXT AS (json_extract(body, '$.executable.path')) VIRTUAL,
            backend     TEXT AS (json_extract(body, '$.backend')) VIRTUAL
          )""",
          """
          CREATE VIEW decision_log (seq, source, decided_at, allowed, code, layer, rule, policy_hash) AS
            SELECT seq, 'execution', started_at, allowed, decision_code, decision_layer, decision_rule, policy_hash
              FROM executions
            UNION ALL
            SELECT seq, 'decision', decided_at, allowed, code, layer, rule, policy_hash
              FROM decisions""",
          """
          CREATE TABLE plans (
            seq         INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body        TEXT NOT NULL CHECK (typeof(body) = 'text'),
            fingerprint TEXT AS (json_extract(body, '$.fingerprint')) VIRTUAL,
            plan_id     TEXT AS (json_extract(body, '$.planId')) VIRTUAL,
            capability  TEXT AS (json_extract(body, '$.capability.name')) VIRTUAL
          )""",
          "CREATE INDEX plans_fingerprint ON plans (fingerprint)",
          "CREATE UNIQUE INDEX plans_plan_id ON plans (plan_id)",
          """
          CREATE TABLE approvals (
            seq         INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body        TEXT NOT NULL CHECK (typeof(body) = 'text'),
            fingerprint TEXT AS (json_extract(body, '$.fingerprint')) VIRTUAL,
            approved    INTEGER AS (json_extract(body, '$.approved')) VIRTUAL,
            approval_id TEXT AS (json_extract(body, '$.approvalId')) VIRTUAL,
            approver    TEXT AS (json_extract(body, '$.approver')) VIRTUAL,
            reason      TEXT AS (json_extract(body, '$.reason')) VIRTUAL,
            expires_at  TEXT AS (json_extract(body, '$.expiresAt')) VIRTUAL
          )""",
          "CREATE INDEX approvals_fingerprint ON approvals (fingerprint)",
          "CREATE UNIQUE INDEX approvals_approval_id ON approvals (approval_id)",
          """
          CREATE TABLE receipts (
            seq           INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body          TEXT NOT NULL CHECK (typeof(body) = 'text'),
            fingerprint   TEXT AS (json_extract(body, '$.fingerprint')) VIRTUAL,
            status        TEXT AS (json_extract(body, '$.status')) VIRTUAL,
            receipt_id    TEXT AS (json_extract(body, '$.receiptId')) VIRTUAL,
            execution_seq INTEGER AS (json_extract(body, '$.executionSequence')) VIRTUAL
          )""",
          "CREATE INDEX receipts_fingerprint ON receipts (fingerprint)",
          "CREATE UNIQUE INDEX receipts_receipt_id ON receipts (receipt_id)")),
      new Migration(2, List.of(
          """
          CREATE TABLE acquisitions (
            seq         INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body        TEXT NOT NULL CHECK (typeof(body) = 'text'),
            coordinates TEXT AS (json_extract(body, '$.coordinates')) VIRTUAL,
            sha256      TEXT AS (json_extract(body, '$.sha256')) VIRTUAL,
            sha512      TEXT AS (json_extract(body, '$.sha512')) VIRTUAL,
            size        INTEGER AS (json_extract(body, '$.size')) VIRTUAL,
            stored      TEXT AS (json_extract(body, '$.stored')) VIRTUAL,
            accepted    INTEGER AS (json_extract(body, '$.decision.accepted')) VIRTUAL,
            code        TEXT AS (json_extract(body, '$.decision.code')) VIRTUAL,
            policy      TEXT AS (json_extract(body, '$.decision.policy')) VIRTUAL,
            source      TEXT AS (json_extract(body, '$.observations.source')) VIRTUAL
          )""",
          "CREATE INDEX acquisitions_sha256 ON acquisitions (sha256)",
          "CREATE INDEX acquisitions_coordinates ON acquisitions (coordinates)")),
      new Migration(3, List.of(
          """
          CREATE TABLE contracts (
            seq           INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body          TEXT NOT NULL CHECK (typeof(body) = 'text'),
            contract_hash TEXT AS (json_extract(body, '$.contractHash')) VIRTUAL
          )""",
          "CREATE INDEX contracts_contract_hash ON contracts (contract_hash)",
          """
          CREATE TABLE work_plans (
            seq           INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body          TEXT NOT NULL CHECK (typeof(body) = 'text'),
            work_plan_id  TEXT AS (json_extract(body, '$.workPlanId')) VIRTUAL,
            revision      INTEGER AS (json_extract(body, '$.revision')) VIRTUAL,
            revision_hash TEXT AS (json_extract(body, '$.revisionHash')) VIRTUAL
          )""",
          "CREATE UNIQUE INDEX work_plans_revision ON work_plans (work_plan_id, revision)",
          """
          CREATE TABLE phases (
            seq           INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body          TEXT NOT NULL CHECK (typeof(body) = 'text'),
            work_plan_id  TEXT AS (json_extract(body, '$.workPlanId')) VIRTUAL,
            plan_revision INTEGER AS (json_extract(body, '$.planRevision')) VIRTUAL,
            phase_id      TEXT AS (json_extract(body, '$.phaseId')) VIRTUAL,
            event         TEXT AS (json_extract(body, '$.event')) VIRTUAL,
            execution_seq INTEGER AS (json_extract(body, '$.executionSequences[0]')) VIRTUAL
          )""",
          "CREATE INDEX phases_work_plan ON phases (work_plan_id, seq)")),
      new Migration(4, List.of(
          """
          CREATE TABLE assumptions (
            seq           INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body          TEXT NOT NULL CHECK (typeof(body) = 'text'),
            assumption_id TEXT AS (json_extract(body, '$.assumptionId')) VIRTUAL,
            work_plan_id  TEXT AS (json_extract(body, '$.workPlanId')) VIRTUAL,
            phase_id      TEXT AS (json_extract(body, '$.phaseId')) VIRTUAL
          )""",
          "CREATE UNIQUE INDEX assumptions_id ON assumptions (assumption_id)",
          """
          CREATE TABLE corrections (
            seq           INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body          TEXT NOT NULL CHECK (typeof(body) = 'text'),
            assumption_id TEXT AS (json_extract(body, '$.assumptionId')) VIRTUAL,
            event         TEXT AS (json_extract(body, '$.event')) VIRTUAL
          )""",
          "CREATE INDEX corrections_assumption ON corrections (assumption_id, seq)")),
      new Migration(5, List.of(
          """
          CREATE TABLE evaluations (
            seq           INTEGER PRIMARY KEY NOT NULL REFERENCES entries (seq),
            body          TEXT NOT NULL CHECK (typeof(body) = 'text'),
            evaluation_id TEXT AS (json_extract(body, '$.evaluationId')) VIRTUAL,
            config_sha256 TEXT AS (json_extract(body, '$.configSha256')) VIRTUAL,
            all_passed    INTEGER AS (json_extract(body, '$.allPassed')) VIRTUAL
          )""",
          "CREATE INDEX evaluations_evaluation_id ON evaluations (evaluation_id)")));

  private Schema() {}

  /** The version this code writes and reads. */
  public static int currentVersion() {
    return MIGRATIONS.get(MIGRATIONS.size() - 1).version();
  }

  /** The steps from {@code fromVersion} (exclusive) to {@code toVersion} (inclusive). */
  public static List<Migration> migrations(int fromVersion, int toVersion) {
    if (fromVersion < 0 || toVersion > currentVersion() || fromVersion > toVersion) {
      throw new IllegalArgumentException("no migration from version " + fromVersion + " to " + toVersion);
    }
    return MIGRATIONS.subList(fromVersion, toVersion);
  }

  /** The column of a record table that holds the canonical body. */
  public static String bodyColumn(String table) {
    return "executions".equals(table) ? "attestation" : "body";
  }
}
