package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several processes, each with several threads, append to one ledger at once: nothing is lost, nothing surfaces as busy. */
class MultiProcessWriterTest {
  @TempDir Path dir;

  @Test
  void writersInSeveralProcessesAndThreadsInterleaveWithoutLossOrError() throws Exception {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("first"), 0, ""));
    }
    ChildJvm a = ChildJvm.start(List.of(), "append", db.toString(), "300", "2", "25");
    ChildJvm b = ChildJvm.start(List.of(), "append", db.toString(), "300", "2", "40");
    List<Long> mine = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options().toBuilder().checkpointEvery(30).build())) {
      List<Future<Long>> futures = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        int n = i;
        futures.add(pool.submit(() -> ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("parent", "" + n), 0, ""))).sequence()));
      }
      for (Future<Long> f : futures) {
        mine.add(f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(a.finish()).as("child a: %s", a.lines).isZero();
    assertThat(b.finish()).as("child b: %s", b.lines).isZero();
    assertThat(a.lines).contains("done");
    assertThat(b.lines).contains("done");

    Set<Long> all = new HashSet<>(mine);
    for (ChildJvm child : List.of(a, b)) {
      assertThat(child.committed()).hasSize(300);
      child.committed().forEach(line -> assertThat(all.add(Long.parseLong(line.split(" ")[1]))).as("unique " + line).isTrue());
    }
    assertThat(all).hasSize(900).allMatch(seq -> seq >= 2 && seq <= 901);
    LedgerVerification v = LedgerReader.open(db, Fixtures.options()).verify();
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(v.records()).isEqualTo(901);
    assertThat(v.uncheckpointed()).isZero();
  }
}
