package dev.capability.mcp;

import dev.capability.ledger.DeferredLedger;
import dev.capability.ledger.EntrySummary;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.LedgerQuery;
import dev.capability.ledger.LedgerReader;
import dev.capability.ledger.LedgerVerification;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The SQLite ledger as the server's evidence and work-plan store, opened with the first record as the CLI does. */
final class SqliteEvidence implements EvidenceAccess {
  @Override
  public Store open(Path repository) {
    return openPlans(repository);
  }

  @Override
  public boolean keepsWorkPlans() {
    return true;
  }

  @Override
  public PlanStore openPlans(Path repository) {
    return new LedgerStore(repository);
  }

  /** The repository's ledger, opened with its first record, as a plan store. */
  private static final class LedgerStore extends DeferredLedger implements PlanStore {
    LedgerStore(Path repository) {
      super(repository, LedgerOptions.defaults());
    }
  }

  @Override
  public List<Map<String, @Nullable Object>> list(Path repository, int limit) {
    return LedgerReader.forRepository(repository).list(LedgerQuery.latest(limit)).stream().map(SqliteEvidence::summary).toList();
  }

  private static Map<String, @Nullable Object> summary(EntrySummary e) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("seq", e.sequence());
    m.put("kind", e.kind().id());
    m.put("status", e.status());
    return m;
  }

  @Override
  public Optional<Map<String, @Nullable Object>> show(Path repository, long sequence) {
    return LedgerReader.forRepository(repository).show(sequence).map(e -> {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      m.put("seq", e.sequence());
      m.put("kind", e.kind().id());
      m.put("body", e.body());
      return m;
    });
  }

  @Override
  public Map<String, @Nullable Object> verify(Path repository) {
    LedgerVerification v = LedgerReader.forRepository(repository).verify();
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("status", v.status().name());
    m.put("records", v.records());
    return m;
  }
}
