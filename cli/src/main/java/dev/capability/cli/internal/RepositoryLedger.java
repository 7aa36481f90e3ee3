package dev.capability.cli.internal;

import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.DecisionRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.SqliteLedger;
import dev.capability.mcp.EvidenceAccess;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The ledger of a repository ({@code <repository>/.capability/state.db}) as the store the kernel
 * and the runtime record into, opened with the first record. So the kernel's {@code exec} opens
 * it only after the command ended (nothing the ledger writes falls inside the command's audit
 * window), and a command that records nothing (refused before planning, say) leaves no ledger
 * behind.
 */
final class RepositoryLedger implements EvidenceAccess.Store, AutoCloseable {
  private final Path repository;
  private final LedgerOptions options;
  private SqliteLedger opened;

  RepositoryLedger(Path repository, LedgerOptions options) {
    this.repository = repository;
    this.options = options;
  }

  private synchronized SqliteLedger ledger() {
    if (opened == null) {
      opened = SqliteLedger.forRepository(repository, options);
    }
    return opened;
  }

  /** The database file, once something was recorded. */
  synchronized Optional<Path> databaseFile() {
    return Optional.ofNullable(opened).map(SqliteLedger::databaseFile);
  }

  @Override
  public void record(ExecutionResult result) {
    ledger().record(result);
  }

  @Override
  public void record(DecisionRecord decision) {
    ledger().record(decision);
  }

  @Override
  public long recordPlan(PlanRecord plan) {
    return ledger().recordPlan(plan);
  }

  @Override
  public long recordApproval(ApprovalRecord approval) {
    return ledger().recordApproval(approval);
  }

  @Override
  public long recordExecution(ExecutionRecord execution) {
    return ledger().recordExecution(execution);
  }

  @Override
  public long recordReceipt(ReceiptRecord receipt) {
    return ledger().recordReceipt(receipt);
  }

  /** Closes the ledger, when it was opened: its final checkpoint is written now. */
  @Override
  public synchronized void close() {
    if (opened != null) {
      opened.close();
    }
  }
}
