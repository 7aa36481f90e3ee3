package dev.capability.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * The runs of {@link ChildJvmBenchmark} interleaved: every round runs each variant once, in a
 * shuffled order, so that all of them see the same load on a shared machine, where JMH's one
 * method after another lets the load drift between them. Prints, per variant, the median and
 * quartiles, and the median of the per-round ratios to the raw {@code java -cp} run.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.capability.bench.ChildJvmRounds [rounds] [warm-up rounds]</pre>
 */
public final class ChildJvmRounds {
  private static final String BASELINE = "rawJavaCp";

  private ChildJvmRounds() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    ChildJvmBenchmark bench = new ChildJvmBenchmark();
    bench.setUp();
    try {
      Map<String, Callable<?>> variants = new LinkedHashMap<>();
      variants.put(BASELINE, bench::rawJavaCp);
      variants.put("rawJavaCpCds", bench::rawJavaCpCds);
      variants.put("childJvmBwrap", bench::childJvmBwrap);
      variants.put("childJvmBwrapCds", bench::childJvmBwrapCds);
      variants.put("childJvmProcess", bench::childJvmProcess);
      variants.put("childJvmProcessCds", bench::childJvmProcessCds);
      variants.put("childJvmBwrapSharedBackend", bench::childJvmBwrapSharedBackend);
      variants.put("childJvmBwrapSharedBackendCds", bench::childJvmBwrapSharedBackendCds);
      variants.put("partJvmEmptyMain", bench::partJvmEmptyMain);
      variants.put("partHostDirect", bench::partHostDirect);
      variants.put("partHostDirectCds", bench::partHostDirectCds);
      variants.put("partStageClassPath", bench::partStageClassPath);
      variants.put("partKernelBuild", bench::partKernelBuild);
      variants.put("partPlan", bench::partPlan);
      Map<String, List<Double>> millis = new LinkedHashMap<>();
      variants.keySet().forEach(name -> millis.put(name, new ArrayList<>()));
      List<String> order = new ArrayList<>(variants.keySet());
      Random random = new Random(42);
      for (int round = 0; round < warmUp + rounds; round++) {
        Collections.shuffle(order, random);
        for (String name : order) {
          long started = System.nanoTime();
          variants.get(name).call();
          double elapsed = (System.nanoTime() - started) / 1e6;
          if (round >= warmUp) {
            millis.get(name).add(elapsed);
          }
        }
      }
      System.out.printf(Locale.ROOT, "%d rounds after %d warm-up rounds; milliseconds%n", rounds, warmUp);
      System.out.printf(Locale.ROOT, "%-32s %9s %9s %9s %12s%n", "variant", "p25", "median", "p75", "to raw (x)");
      List<Double> baseline = millis.get(BASELINE);
      for (Map.Entry<String, List<Double>> entry : millis.entrySet()) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
          ratios.add(entry.getValue().get(i) / baseline.get(i));
        }
        System.out.printf(
            Locale.ROOT,
            "%-32s %9.2f %9.2f %9.2f %12.2f%n",
            entry.getKey(),
            quantile(entry.getValue(), 0.25),
            quantile(entry.getValue(), 0.5),
            quantile(entry.getValue(), 0.75),
            quantile(ratios, 0.5));
      }
    } finally {
      bench.tearDown();
    }
  }

  private static double quantile(List<Double> values, double q) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    double position = q * (sorted.size() - 1);
    int below = (int) Math.floor(position);
    int above = (int) Math.ceil(position);
    return sorted.get(below) + (sorted.get(above) - sorted.get(below)) * (position - below);
  }
}
