package dev.capability.cli.internal;

import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.LedgerQuery;
import dev.capability.ledger.LedgerReader;
import dev.capability.mcp.EvidenceAccess;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The repository's SQLite ledger as the MCP server's evidence: the CLI chooses the store, the
 * server only sees {@link EvidenceAccess}. Records as {@code capability exec} and {@code run} do
 * (the ledger opened with the first record), and reads as {@code capability ledger} does.
 */
final class LedgerEvidence implements EvidenceAccess {
  /**
   * Without timed checkpoints: the ledger writes only when something is recorded, never inside a
   * command's audit window; closing it after each tool call writes the checkpoint.
   */
  private static final LedgerOptions RECORDING = LedgerOptions.builder().checkpointMaxDelay(null).build();

  @Override
  public Store open(Path repository) {
    return new RepositoryLedger(repository, RECORDING);
  }

  /** The same ledger, which holds the work plan and the assumptions {@code capability work-plan} and {@code assumption} keep. */
  @Override
  public PlanStore openPlans(Path repository) {
    return new RepositoryLedger(repository, RECORDING);
  }

  @Override
  public boolean keepsWorkPlans() {
    return true;
  }

  @Override
  public List<Map<String, @Nullable Object>> list(Path repository, int limit) {
    return LedgerReader.forRepository(repository).list(LedgerQuery.latest(limit)).stream()
        .map(entry -> (Map<String, @Nullable Object>) new LinkedHashMap<String, @Nullable Object>(LedgerCommand.ListCommand.toMap(entry)))
        .toList();
  }

  @Override
  public Optional<Map<String, @Nullable Object>> show(Path repository, long sequence) {
    return LedgerReader.forRepository(repository).show(sequence)
        .map(entry -> new LinkedHashMap<String, @Nullable Object>(LedgerCommand.ShowCommand.toMap(entry)));
  }

  @Override
  public Map<String, @Nullable Object> verify(Path repository) {
    return new LinkedHashMap<>(LedgerCommand.VerifyCommand.toMap(LedgerReader.forRepository(repository).verify()));
  }
}
