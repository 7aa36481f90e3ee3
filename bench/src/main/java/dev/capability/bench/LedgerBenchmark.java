package dev.capability.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.LedgerReader;
import dev.capability.ledger.LedgerRecord;
import dev.capability.ledger.LedgerVerification;
import dev.capability.ledger.SqliteLedger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The ledger's durable appends (committed, WAL, {@code synchronous=NORMAL}, chain and canonical
 * JSON included) with one thread and with four, against the same rows inserted with plain JDBC,
 * one transaction a row; and {@code verify} over a large ledger. Results are records per second
 * (operations per second); {@code verify} reports seconds for the whole ledger.
 *
 * <p>{@code java -jar bench/target/benchmarks.jar LedgerBenchmark} runs them all;
 * {@code -p records=1000000} sets the size of the verified ledger.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class LedgerBenchmark {

  /** A realistic attestation: a completed run with an executable, a backend and output digests. */
  static Attestation attestation(int n) {
    List<String> argv = List.of("mvn", "-q", "-Dtest=Case" + n, "test");
    Decision decision = Decision.allow("operator", "executables.mvn.subcommands.test");
    CapturedOutput out = CapturedOutput.of(("output " + n).getBytes(StandardCharsets.UTF_8), false);
    Instant started = Instant.parse("2026-11-30T10:00:00.123Z").plusMillis(n);
    return Attestation.builder()
        .kernelVersion("0.1.0")
        .status(ExecutionStatus.COMPLETED)
        .argv(argv)
        .commandSpecHash(Sha256.hex(("spec" + n).getBytes(StandardCharsets.UTF_8)))
        .decision(decision)
        .policyHash(Sha256.hex("policy".getBytes(StandardCharsets.UTF_8)))
        .policySource("file:/etc/capability/policy.json")
        .executable(new Attestation.Executable("/usr/share/maven/bin/mvn", Sha256.hex("mvn".getBytes(StandardCharsets.UTF_8)), PinnedExecutable.Pinning.PROC_FD))
        .backend(new Attestation.Backend("process", Set.of(IsolationCapability.SESSION_TERMINATION),
            Attestation.Backend.Choice.NAMED, "named by the request"))
        .environment(new Attestation.Environment(List.of("HOME", "JAVA_HOME", "LANG", "PATH"), List.of("MAVEN_OPTS")))
        .network(NetworkMode.HOST)
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeBoundaries(new Attestation.WriteBoundaries(List.of("target/**"), null, null, null))
        .filesProduced(List.of("target/surefire-reports/TEST-Case.xml"))
        .inputTreeHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")
        .stdout(Attestation.Stream.of(out))
        .startedAt(started)
        .finishedAt(started.plus(Duration.ofMillis(1234)))
        .exitCode(0)
        .build();
  }

  static Path freshDirectory(String name) throws IOException {
    return Files.createTempDirectory(name).toRealPath();
  }

  static void delete(Path dir) throws IOException {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** One ledger shared by the benchmark threads, as the threads of one process share it. */
  @State(Scope.Benchmark)
  public static class Ledger {
    Path directory;
    SqliteLedger ledger;
    final List<Attestation> attestations = new ArrayList<>();
    final AtomicLong next = new AtomicLong();

    public Ledger() {
      for (int i = 0; i < 1024; i++) {
        attestations.add(attestation(i));
      }
    }

    @Setup(Level.Iteration)
    public void open() throws IOException {
      directory = freshDirectory("ledger-bench");
      ledger = SqliteLedger.open(directory.resolve("state.db"), LedgerOptions.defaults());
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
      ledger.close();
      delete(directory);
    }

    Attestation nextAttestation() {
      return attestations.get((int) (next.getAndIncrement() & 1023));
    }
  }

  /** The same rows, written by plain JDBC: one connection per thread, one transaction per row, no chain. */
  @State(Scope.Benchmark)
  public static class PlainDatabase {
    Path directory;
    Path db;
    final AtomicLong sequence = new AtomicLong();
    final List<Attestation> attestations = new ArrayList<>();
    final List<String> canonical = new ArrayList<>();

    public PlainDatabase() {
      for (int i = 0; i < 1024; i++) {
        attestations.add(attestation(i));
        canonical.add(CanonicalJson.serialize(AttestationJson.toMap(attestation(i))));
      }
    }

    @Setup(Level.Iteration)
    public void create() throws IOException {
      directory = freshDirectory("ledger-bench-plain");
      db = directory.resolve("state.db");
      SqliteLedger.open(db, LedgerOptions.defaults()).close();
      sequence.set(0);
    }

    @TearDown(Level.Iteration)
    public void remove() throws IOException {
      delete(directory);
    }
  }

  /** A plain writer's connection, one per benchmark thread. */
  @State(Scope.Thread)
  public static class PlainConnection {
    Connection connection;
    PreparedStatement begin;
    PreparedStatement commit;
    PreparedStatement entry;
    PreparedStatement execution;
    PreparedStatement nextSequence;
    PreparedStatement rollback;
    final ObjectMapper json = new ObjectMapper();

    @Setup(Level.Iteration)
    public void connect(PlainDatabase database) throws SQLException {
      // The same settings as the ledger's writer: no generated-key query after each insert.
      java.util.Properties properties = new java.util.Properties();
      properties.setProperty("jdbc.get_generated_keys", "false");
      connection = DriverManager.getConnection("jdbc:sqlite:" + database.db, properties);
      try (Statement s = connection.createStatement()) {
        s.execute("PRAGMA journal_mode = WAL");
        s.execute("PRAGMA synchronous = NORMAL");
        s.execute("PRAGMA foreign_keys = ON");
        s.execute("PRAGMA busy_timeout = 30000");
      }
      begin = connection.prepareStatement("BEGIN IMMEDIATE");
      commit = connection.prepareStatement("COMMIT");
      entry = connection.prepareStatement("INSERT INTO entries (seq, kind, recorded_at, prev_hash, hash) VALUES (?, 'execution', ?, ?, ?)");
      execution = connection.prepareStatement("INSERT INTO executions (seq, attestation) VALUES (?, ?)");
      nextSequence = connection.prepareStatement("SELECT coalesce(max(seq), 0) + 1 FROM entries");
      rollback = connection.prepareStatement("ROLLBACK");
    }

    @TearDown(Level.Iteration)
    public void disconnect() throws SQLException {
      connection.close();
    }

    void insert(long seq, String body) throws SQLException {
      begin.execute();
      entry.setLong(1, seq);
      entry.setString(2, "2026-11-30T10:00:00.000000Z");
      entry.setString(3, "0000000000000000000000000000000000000000000000000000000000000000");
      entry.setString(4, "1111111111111111111111111111111111111111111111111111111111111111");
      entry.executeUpdate();
      execution.setLong(1, seq);
      execution.setString(2, body);
      execution.executeUpdate();
      commit.execute();
    }
  }

  @Benchmark
  @Threads(1)
  public long appendOneWriter(Ledger state) {
    return state.ledger.append(LedgerRecord.execution(state.nextAttestation())).sequence();
  }

  @Benchmark
  @Threads(4)
  public long appendFourThreads(Ledger state) {
    return state.ledger.append(LedgerRecord.execution(state.nextAttestation())).sequence();
  }

  /** Baseline: the row's JSON already serialized; only the two inserts and the commit. */
  @Benchmark
  @Threads(1)
  public long plainJdbcPreserialized(PlainDatabase database, PlainConnection plain) throws SQLException {
    long seq = database.sequence.incrementAndGet();
    plain.insert(seq, database.canonical.get((int) (seq & 1023)));
    return seq;
  }

  /** Baseline: the row's JSON written by Jackson, as a plain application would store it. */
  @Benchmark
  @Threads(1)
  public long plainJdbcWithJackson(PlainDatabase database, PlainConnection plain) throws Exception {
    long seq = database.sequence.incrementAndGet();
    plain.insert(seq, plain.json.writeValueAsString(AttestationJson.toMap(database.attestations.get((int) (seq & 1023)))));
    return seq;
  }

  @Benchmark
  @Threads(4)
  public long plainJdbcFourThreads(PlainDatabase database, PlainConnection plain) throws SQLException {
    // Sequence numbers are taken inside the lock the transaction holds, as a chained writer would.
    while (true) {
      try {
        plain.begin.execute();
        long seq;
        try (ResultSet rs = plain.nextSequence.executeQuery()) {
          rs.next();
          seq = rs.getLong(1);
        }
        plain.entry.setLong(1, seq);
        plain.entry.setString(2, "2026-11-30T10:00:00.000000Z");
        plain.entry.setString(3, "0000000000000000000000000000000000000000000000000000000000000000");
        plain.entry.setString(4, "1111111111111111111111111111111111111111111111111111111111111111");
        plain.entry.executeUpdate();
        plain.execution.setLong(1, seq);
        plain.execution.setString(2, database.canonical.get((int) (seq & 1023)));
        plain.execution.executeUpdate();
        plain.commit.execute();
        return seq;
      } catch (SQLException e) {
        try {
          plain.rollback.execute();
        } catch (SQLException ignored) {
          // Nothing was open.
        }
        if (!e.getMessage().contains("SQLITE_BUSY")) {
          throw e;
        }
      }
    }
  }

  /** A ledger of {@code records} executions, built once, verified whole each time. */
  @State(Scope.Benchmark)
  public static class LargeLedger {
    @Param("1000000")
    int records;

    Path directory;
    LedgerReader reader;

    @Setup(Level.Trial)
    public void build() throws Exception {
      directory = freshDirectory("ledger-bench-verify");
      Path db = directory.resolve("state.db");
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try (SqliteLedger ledger = SqliteLedger.open(db, LedgerOptions.builder().checkpointEvery(10_000).build())) {
        List<Future<?>> batch = new ArrayList<>();
        for (int i = 0; i < records; i++) {
          Attestation a = attestation(i);
          batch.add(pool.submit(() -> ledger.append(LedgerRecord.execution(a))));
          if (batch.size() == 4096) {
            for (Future<?> f : batch) {
              f.get();
            }
            batch.clear();
          }
        }
        for (Future<?> f : batch) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      reader = LedgerReader.open(db, LedgerOptions.defaults());
    }

    @TearDown(Level.Trial)
    public void remove() throws IOException {
      delete(directory);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Warmup(iterations = 1)
  @Measurement(iterations = 3)
  public LedgerVerification verify(LargeLedger large) {
    LedgerVerification v = large.reader.verify();
    if (!v.intact() || v.records() != large.records) {
      throw new IllegalStateException("the benchmark ledger does not verify: " + v);
    }
    return v;
  }
}
