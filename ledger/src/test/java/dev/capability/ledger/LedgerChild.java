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
 * threads and prints {@code done}; {@code fill DB} appends until the storage refuses, prints
 * {@code error <code> <message>}, then checks the file itself and prints {@code integrity_check
 * <result>}, {@code missing <committed records not found>} and {@code verified <integrity>
 * <completeness>}; {@code fill-tmpfs DIR} first mounts a 4 MB tmpfs on DIR (the child is started in a
 * mount namespace of its own, so the host's mounts never change) and then fills {@code DIR/state.db}.
 */
public final class LedgerChild {
  private LedgerChild() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    Path db = Path.of(args[1]);
    if (args[0].equals("append")) {
      append(out, db, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    } else if (args[0].equals("fill-tmpfs")) {
      mountSmallTmpfs(db);
      fill(out, db.resolve("state.db"));
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

  private static void mountSmallTmpfs(Path directory) throws Exception {
    Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", directory.toString())
        .redirectErrorStream(true).start();
    String output = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (mount.waitFor() != 0) {
      throw new IllegalStateException("mounting a tmpfs on " + directory + " failed: " + output);
    }
  }

  private static void fill(PrintStream out, Path db) throws Exception {
    String padding = "p".repeat(2000);
    List<String> committed = new ArrayList<>();
    try (SqliteLedger ledger = SqliteLedger.open(db, LedgerOptions.builder().checkpointEvery(50).build())) {
      report(out, "ready");
      for (int i = 0; ; i++) {
        try {
          Appended a = ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("fill", "" + i, padding), 0, "")));
          committed.add(a.sequence() + " " + a.hash());
          report(out, "committed " + a.sequence() + " " + a.hash());
        } catch (LedgerException e) {
          report(out, "error " + e.code() + " " + e.getMessage().replace('\n', ' '));
          break;
        }
      }
    } catch (LedgerException e) {
      report(out, "close-error " + e.code() + " " + e.getMessage().replace('\n', ' '));
    }
    // Checked here too, for storage that disappears with this process (a tmpfs in its own mount namespace).
    try (java.sql.Connection c = Fixtures.raw(db); java.sql.Statement s = c.createStatement()) {
      try (java.sql.ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
        rs.next();
        report(out, "integrity_check " + rs.getString(1));
      }
      java.util.Set<String> stored = new java.util.HashSet<>();
      try (java.sql.ResultSet rs = s.executeQuery("SELECT seq, hash FROM entries")) {
        while (rs.next()) {
          stored.add(rs.getLong(1) + " " + rs.getString(2));
        }
      }
      report(out, "missing " + committed.stream().filter(line -> !stored.contains(line)).count());
    }
    LedgerVerification v = LedgerReader.open(db, LedgerOptions.defaults()).verify();
    report(out, "verified " + v.integrity().status() + " " + v.completeness().status());
  }

  private static void report(PrintStream out, String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }
}
