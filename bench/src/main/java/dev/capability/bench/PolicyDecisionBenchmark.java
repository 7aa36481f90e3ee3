package dev.capability.bench;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Policy decision latency under the example read-only development policy, for a mix of allowed
 * and refused commands; the raw baseline is an exact-argv lookup in a list.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PolicyDecisionBenchmark {
  static final List<List<String>> COMMANDS = List.of(
      List.of("git", "status", "--short", "--branch"),
      List.of("git", "diff", "--stat", "--", "src/main/java", "pom.xml"),
      List.of("mvn", "-q", "test"),
      List.of("ls", "-la", "src"),
      List.of("cat", "-n", "README.md"),
      List.of("git", "-c", "core.pager=sh", "status"),
      List.of("git", "diff", "--", "../etc/passwd"),
      List.of("rm", "-rf", "/"));

  private LoadedPolicy policy;
  private final Path workspace = Path.of("/work/repo");

  @Setup
  public void setUp() throws IOException {
    try (InputStream in = PolicyDecisionBenchmark.class.getResourceAsStream("/readonly-dev.json")) {
      policy = ExecutionPolicies.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "bench");
    }
  }

  @Benchmark
  @OperationsPerInvocation(8)
  public void kernelDecision(Blackhole bh) {
    for (List<String> argv : COMMANDS) {
      Decision d = ExecutionPolicies.decide(policy, argv, workspace);
      bh.consume(d);
    }
  }

  @Benchmark
  @OperationsPerInvocation(8)
  public void rawExactLookup(Blackhole bh) {
    for (List<String> argv : COMMANDS) {
      bh.consume(COMMANDS.indexOf(argv) < 5);
    }
  }
}
