package dev.capability.cli.internal;

import dev.capability.ledger.DeferredLedger;
import dev.capability.ledger.LedgerOptions;
import dev.capability.mcp.EvidenceAccess;
import java.nio.file.Path;

/**
 * The repository's ledger, opened with its first record ({@link DeferredLedger}), in the shape the
 * MCP server's tools record into and read the work plan from.
 */
final class RepositoryLedger extends DeferredLedger implements EvidenceAccess.PlanStore {
  RepositoryLedger(Path repository, LedgerOptions options) {
    super(repository, options);
  }
}
