package dev.capability.bench;

import dev.capability.kernel.core.CommandStrings;
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
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Parser throughput on a mixed corpus of typical commands (about five words, some quoting),
 * against the raw baseline of splitting the same strings on single spaces.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ParserBenchmark {
  static final List<String> CORPUS = List.of(
      "git status --short --branch",
      "git diff --stat -- src/main",
      "mvn -q test -Dtest=FooTest",
      "ls -la src/main/java",
      "cat -n README.md docs/cli.md",
      "grep -rn 'needle in' src",
      "git log --oneline -n 20",
      "java -jar target/app.jar --port 8080",
      "rg \"FIXTURE\\(\" --type java",
      "cp -r build/out \"dist/my dir\"");

  @Benchmark
  @OperationsPerInvocation(10)
  public void kernelParser(Blackhole bh) {
    for (String command : CORPUS) {
      bh.consume(CommandStrings.split(command));
    }
  }

  @Benchmark
  @OperationsPerInvocation(10)
  public void rawSplitOnSpaces(Blackhole bh) {
    for (String command : CORPUS) {
      bh.consume(List.of(command.split(" ")));
    }
  }
}
