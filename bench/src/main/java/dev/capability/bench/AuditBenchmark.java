package dev.capability.bench;

import dev.capability.kernel.core.internal.audit.RepositoryChanges;
import dev.capability.kernel.core.internal.audit.RepositorySnapshot;
import dev.capability.kernel.core.internal.audit.WorkingTreeHash;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The repository audit on a committed 50,000-file repository (500 directories of 100 files),
 * against {@code git status --porcelain} on the same repository in the same run: a snapshot, a
 * warm re-snapshot and diff when nothing changed (what the kernel does after a command that
 * wrote nothing), and the input tree hash. Setup waits out the racy window so that files are
 * judged by stat data, as they are in a repository nobody just wrote.
 *
 * <p>On a shared, loaded machine, {@link #main} is the fair comparison: it alternates a snapshot,
 * a warm re-snapshot and diff, and {@code git status --porcelain} in each round and reports the
 * medians and the median per-round ratios.
 *
 * <pre>
 * nice -n -20 java -cp bench/target/benchmarks.jar dev.capability.bench.AuditBenchmark 20
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(1)
public class AuditBenchmark {
  private static final int DIRECTORIES = 500;
  private static final int FILES_PER_DIRECTORY = 100;

  private Path repository;
  private RepositorySnapshot baseline;

  @Setup(Level.Trial)
  public void setUp() throws IOException, InterruptedException {
    repository = Files.createTempDirectory("audit-bench").toRealPath();
    for (int d = 0; d < DIRECTORIES; d++) {
      Path dir = Files.createDirectories(repository.resolve(String.format("src/d%03d", d)));
      for (int f = 0; f < FILES_PER_DIRECTORY; f++) {
        Files.writeString(dir.resolve(String.format("f%03d.txt", f)), "file " + d + " " + f + "\n", StandardCharsets.UTF_8);
      }
    }
    git("init", "-q");
    git("add", "-A");
    // No automatic gc in the background while measuring: pack once, in the foreground.
    git("-c", "gc.auto=0", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "bench");
    git("gc", "-q");
    git("status", "--porcelain"); // lets git refresh its index once, as on any used repository
    Thread.sleep(RepositorySnapshot.RACY_WINDOW.toMillis() + 100);
    baseline = RepositorySnapshot.take(repository);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (Stream<Path> paths = Files.walk(repository)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Benchmark
  public RepositorySnapshot snapshot() {
    return RepositorySnapshot.take(repository);
  }

  @Benchmark
  public RepositoryChanges warmResnapshotAndDiff() {
    RepositoryChanges changes = baseline.diff(baseline.retake());
    if (!changes.isEmpty()) {
      throw new IllegalStateException("nothing should have changed, but: " + changes.paths());
    }
    return changes;
  }

  @Benchmark
  public String workingTreeHash() {
    return WorkingTreeHash.of(repository);
  }

  @Benchmark
  public int gitStatusPorcelain() throws IOException, InterruptedException {
    // --no-optional-locks: like the audit, status must not write the index while it looks.
    return git("--no-optional-locks", "status", "--porcelain");
  }

  /** Alternating rounds on a fresh 50,000-file repository; the argument is the round count. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    AuditBenchmark bench = new AuditBenchmark();
    bench.setUp();
    try {
      for (int i = 0; i < 10; i++) {
        bench.snapshot();
        bench.warmResnapshotAndDiff();
        bench.gitStatusPorcelain();
      }
      double[] snapshot = new double[rounds];
      double[] warm = new double[rounds];
      double[] git = new double[rounds];
      double[] snapshotRatio = new double[rounds];
      double[] warmRatio = new double[rounds];
      for (int round = 0; round < rounds; round++) {
        long start = System.nanoTime();
        bench.snapshot();
        long snapshotEnd = System.nanoTime();
        bench.warmResnapshotAndDiff();
        long warmEnd = System.nanoTime();
        bench.gitStatusPorcelain();
        long gitEnd = System.nanoTime();
        snapshot[round] = (snapshotEnd - start) / 1e6;
        warm[round] = (warmEnd - snapshotEnd) / 1e6;
        git[round] = (gitEnd - warmEnd) / 1e6;
        snapshotRatio[round] = snapshot[round] / git[round];
        warmRatio[round] = warm[round] / git[round];
      }
      System.out.printf(
          "snapshot %.1f ms, warm re-snapshot and diff %.1f ms, git status --porcelain %.1f ms"
              + " (medians of %d rounds); median ratios %.2fx and %.2fx%n",
          median(snapshot), median(warm), median(git), rounds, median(snapshotRatio), median(warmRatio));
    } finally {
      bench.tearDown();
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  private int git(String... args) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(Stream.concat(Stream.of("git"), List.of(args).stream()).toList())
        .directory(repository.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().putAll(Map.of("GIT_CONFIG_NOSYSTEM", "1", "LANG", "C.UTF-8"));
    int exit = builder.start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("git " + String.join(" ", args) + " exited with " + exit);
    }
    return exit;
  }
}
