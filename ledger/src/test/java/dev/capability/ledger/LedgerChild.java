package dev.capability.ledger;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A writer in its own JVM, for the tests that kill writers or race them across processes. It
 * prints {@code committed <seq> <hash>} only after an append returned, so every line it managed to
 * print names a committed record.
 *
 * <p>Arguments: {@code append DB COUNT THREADS CHECKPOINT_EVERY} appends COUNT records from THREADS
 * threads and prints {@code done}; {@code fill DB} appends until the storage refuses and prints
 * {@code error <code> <message>}.
 */
public final class LedgerChild {
  private LedgerChild() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    Path db = Path.of(args[1]);
    if (args[0].equals("append")) {
      append(out, db, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    } else {
      fill(out, db);
    }
    out.flush();
  }

  private static void append(PrintStream out, Path db, int count, int threads, int checkpointEvery) throws Exception {
    LedgerOptions options = LedgerOptions.builder().checkpointEvery(checkpointEvery).build();
    try (SqliteLedger ledger = SqliteLedger.open(db, options)) {
      report(out, "ready");
      AtomicLong remaining = new AtomicLong(count);
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        Thread worker = new Thread(() -> {
          while (remaining.getAndDecrement() > 0) {
            Appended a = ledger.append(LedgerRecord.execution(
                Fixtures.completed(List.of("worker", "" + thread, "pid" + ProcessHandle.current().pid()), 0, "x")));
            report(out, "committed " + a.sequence() + " " + a.hash());
          }
        });
        worker.start();
        workers.add(worker);
      }
      for (Thread worker : workers) {
        worker.join();
      }
    }
    report(out, "done");
  }

  private static void fill(PrintStream out, Path db) {
    String padding = "p".repeat(2000);
    try (SqliteLedger ledger = SqliteLedger.open(db, LedgerOptions.builder().checkpointEvery(50).build())) {
      report(out, "ready");
      for (int i = 0; ; i++) {
        try {
          Appended a = ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("fill", "" + i, padding), 0, "")));
          report(out, "committed " + a.sequence() + " " + a.hash());
        } catch (LedgerException e) {
          report(out, "error " + e.code() + " " + e.getMessage().replace('\n', ' '));
          break;
        }
      }
    } catch (LedgerException e) {
      report(out, "close-error " + e.code() + " " + e.getMessage().replace('\n', ' '));
    }
    report(out, "done");
  }

  private static void report(PrintStream out, String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }
}
