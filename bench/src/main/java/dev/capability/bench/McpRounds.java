package dev.capability.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * The calls of {@link McpBenchmark} interleaved in rounds (each round runs a batch of every variant,
 * in a shuffled order, so all see the same load on a shared machine), reporting per call the median
 * wall time and the CPU time spent for it: this JVM's (client, HTTP server, in-process kernel) plus
 * the stdio server child's. On an overloaded machine the wall time mostly measures waiting for a
 * core; the CPU time is what the protocol costs.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.capability.bench.McpRounds [rounds] [calls per batch] [warm-up rounds]</pre>
 */
public final class McpRounds {
  private static final String BASELINE = "inProcessCheck";

  private McpRounds() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    McpBenchmark bench = new McpBenchmark();
    bench.setUp();
    try {
      Map<String, Callable<?>> variants = new LinkedHashMap<>();
      variants.put(BASELINE, bench::inProcessCheck);
      variants.put("httpCheck", bench::httpCheck);
      variants.put("stdioCheck", bench::stdioCheck);
      Map<String, List<Double>> wall = new LinkedHashMap<>();
      Map<String, List<Double>> cpu = new LinkedHashMap<>();
      variants.keySet().forEach(name -> {
        wall.put(name, new ArrayList<>());
        cpu.put(name, new ArrayList<>());
      });
      OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      List<String> order = new ArrayList<>(variants.keySet());
      Random random = new Random(42);
      for (int round = 0; round < warmUp + rounds; round++) {
        Collections.shuffle(order, random);
        for (String name : order) {
          long cpuBefore = os.getProcessCpuTime() + childrenCpuNanos();
          long started = System.nanoTime();
          for (int i = 0; i < batch; i++) {
            variants.get(name).call();
          }
          double elapsed = (System.nanoTime() - started) / 1e6 / batch;
          double cpuMillis = (os.getProcessCpuTime() + childrenCpuNanos() - cpuBefore) / 1e6 / batch;
          if (round >= warmUp) {
            wall.get(name).add(elapsed);
            cpu.get(name).add(cpuMillis);
          }
        }
      }
      double baseWall = median(wall.get(BASELINE));
      double baseCpu = median(cpu.get(BASELINE));
      System.out.printf(Locale.ROOT, "%-16s %12s %8s %12s %8s%n", "variant", "wall ms", "ratio", "cpu ms", "ratio");
      for (String name : variants.keySet()) {
        double w = median(wall.get(name));
        double c = median(cpu.get(name));
        System.out.printf(Locale.ROOT, "%-16s %12.3f %8.1f %12.3f %8.1f%n", name, w, w / baseWall, c, c / baseCpu);
      }
    } finally {
      bench.tearDown();
    }
  }

  /** CPU time of this JVM's children (the stdio server), as far as the platform reports it. */
  private static long childrenCpuNanos() {
    return ProcessHandle.current().children()
        .mapToLong(child -> child.info().totalCpuDuration().map(Duration::toNanos).orElse(0L))
        .sum();
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
