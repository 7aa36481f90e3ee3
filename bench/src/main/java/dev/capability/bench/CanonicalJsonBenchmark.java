package dev.capability.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.json.CanonicalJson;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * RFC 8785 canonical JSON of one attestation (the ledger's record, about 1.3 KB of UTF-8) against
 * Jackson's plain serializer writing the same maps to bytes: the issue-23 target is at most 2x.
 * Both produce bytes, the form the ledger hashes and stores.
 *
 * <p>On a shared, loaded machine the JMH methods (run one after the other) drift apart; {@link
 * #main} alternates the two in short rounds and reports the median ratio of the rounds, which is
 * the fair comparison there.
 *
 * <pre>
 * nice -n -20 java -jar bench/target/benchmarks.jar CanonicalJsonBenchmark -prof gc
 * nice -n -20 java -cp bench/target/benchmarks.jar dev.capability.bench.CanonicalJsonBenchmark 40
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class CanonicalJsonBenchmark {
  private final ObjectMapper jackson = new ObjectMapper();
  private Map<String, Object> attestation;

  @Setup
  public void build() {
    attestation = AttestationJson.toMap(LedgerBenchmark.attestation(7));
    int size = CanonicalJson.bytes(attestation).length;
    if (size < 1000 || size > 1600) {
      throw new IllegalStateException("the bench attestation is " + size + " bytes, not about 1.3 KB");
    }
  }

  @Benchmark
  public byte[] canonical() {
    return CanonicalJson.bytes(attestation);
  }

  @Benchmark
  public byte[] jacksonPlain() throws Exception {
    return jackson.writeValueAsBytes(attestation);
  }

  /** Alternating rounds; the argument is the number of rounds (default 40). */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int callsPerRound = 20_000;
    CanonicalJsonBenchmark bench = new CanonicalJsonBenchmark();
    bench.build();
    long sink = 0;
    for (int i = 0; i < 200_000; i++) {
      sink += bench.canonical().length + bench.jacksonPlain().length;
    }
    double[] canonical = new double[rounds];
    double[] jackson = new double[rounds];
    double[] ratios = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      boolean canonicalFirst = round % 2 == 0;
      for (int turn = 0; turn < 2; turn++) {
        boolean timeCanonical = canonicalFirst == (turn == 0);
        long start = System.nanoTime();
        for (int i = 0; i < callsPerRound; i++) {
          sink += timeCanonical ? bench.canonical().length : bench.jacksonPlain().length;
        }
        double perCall = (System.nanoTime() - start) / (double) callsPerRound;
        if (timeCanonical) {
          canonical[round] = perCall;
        } else {
          jackson[round] = perCall;
        }
      }
      ratios[round] = canonical[round] / jackson[round];
    }
    System.out.printf(
        "canonical %.0f ns, jackson %.0f ns (medians of %d rounds); median ratio %.2fx"
            + " (canonical %d bytes; sink %d)%n",
        median(canonical),
        median(jackson),
        rounds,
        median(ratios),
        bench.canonical().length,
        sink);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
