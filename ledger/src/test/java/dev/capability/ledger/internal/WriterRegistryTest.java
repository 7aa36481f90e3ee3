package dev.capability.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.ledger.Fixtures;
import dev.capability.ledger.LedgerReader;
import dev.capability.ledger.LedgerRecord;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriterRegistryTest {
  @TempDir Path dir;

  @Test
  void ledgersOpenedOnOneFileInOneProcessShareOneWriterUntilTheLastCloses() throws Exception {
    Path db = dir.resolve("state.db");
    Path viaLink = Files.createSymbolicLink(dir.resolve("alias"), dir).resolve("state.db");
    AppendLog first = WriterRegistry.acquire(db, Fixtures.options());
    AppendLog second = WriterRegistry.acquire(viaLink, Fixtures.options());
    try {
      assertThat(second).isSameAs(first);
    } finally {
      WriterRegistry.release(second);
    }
    assertThat(first.append(PreparedRecord.of(LedgerRecord.execution(Fixtures.completed(List.of("ls"), 0, "")))).sequence())
        .as("the first handle still writes").isEqualTo(1);
    WriterRegistry.release(first);
    AppendLog third = WriterRegistry.acquire(db, Fixtures.options());
    try {
      assertThat(third).as("a fresh writer after the last close").isNotSameAs(first);
    } finally {
      WriterRegistry.release(third);
    }
  }

  @Test
  void threadsShareCommitsAndGetContiguousSequences() throws Exception {
    Path db = dir.resolve("state.db");
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options().toBuilder().checkpointEvery(64).build())) {
      List<Future<?>> futures = new java.util.ArrayList<>();
      for (int i = 0; i < 800; i++) {
        int n = i;
        futures.add(pool.submit(() -> seen.add(ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("t", "" + n), 0, ""))).sequence())));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(seen).hasSize(800).allMatch(s -> s >= 1 && s <= 800);
    assertThat(LedgerReader.open(db, Fixtures.options()).verify().intact()).isTrue();
  }

  @Test
  void aRefusedRecordInASharedCommitFailsAloneAndLeavesNoGap() throws Exception {
    Path db = dir.resolve("state.db");
    Set<Long> landed = ConcurrentHashMap.newKeySet();
    java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.append(LedgerRecord.of(dev.capability.ledger.RecordKind.PLAN, Fixtures.plan("known")));
      List<Future<?>> futures = new java.util.ArrayList<>();
      for (int i = 0; i < 600; i++) {
        String plan = i % 3 == 0 ? "unknown" : Fixtures.fingerprint("known");
        int n = i;
        futures.add(pool.submit(() -> {
          try {
            landed.add(ledger.append(LedgerRecord.of(dev.capability.ledger.RecordKind.APPROVAL,
                java.util.Map.of("approvalId", "a" + n, "fingerprint", plan, "approved", true))).sequence());
          } catch (dev.capability.ledger.LedgerException e) {
            assertThat(e.code()).isEqualTo("LEDGER_RECORD_INVALID");
            refused.incrementAndGet();
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(refused.get()).isEqualTo(200);
    assertThat(landed).hasSize(400).allMatch(s -> s >= 2 && s <= 401);
    assertThat(LedgerReader.open(db, Fixtures.options()).verify().intact()).isTrue();
  }

  @Test
  void aConstraintBrokenInsideASharedCommitFailsOnlyItsRecord() throws Exception {
    Path db = dir.resolve("state.db");
    Set<Long> landed = ConcurrentHashMap.newKeySet();
    Set<String> planned = ConcurrentHashMap.newKeySet();
    java.util.concurrent.atomic.AtomicInteger duplicates = new java.util.concurrent.atomic.AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      List<Future<?>> futures = new java.util.ArrayList<>();
      for (int i = 0; i < 300; i++) {
        // Every plan id is proposed twice; the unique index lets one of each pair in.
        String id = "plan-" + (i / 2);
        futures.add(pool.submit(() -> {
          try {
            landed.add(ledger.append(LedgerRecord.of(dev.capability.ledger.RecordKind.PLAN, Fixtures.plan(id))).sequence());
            assertThat(planned.add(id)).as("one plan per id").isTrue();
          } catch (dev.capability.ledger.LedgerException e) {
            assertThat(e.code()).isEqualTo("LEDGER_RECORD_INVALID");
            duplicates.incrementAndGet();
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(duplicates.get()).isEqualTo(150);
    assertThat(landed).hasSize(150).allMatch(s -> s >= 1 && s <= 150);
    assertThat(LedgerReader.open(db, Fixtures.options()).verify().intact()).isTrue();
  }
}
