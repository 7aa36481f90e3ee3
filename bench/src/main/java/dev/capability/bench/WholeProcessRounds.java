package dev.capability.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Whole processes, interleaved: every round runs each variant once, in a shuffled order, so all of
 * them see the same load on a shared machine. Each run goes through GNU {@code /usr/bin/time}, which
 * reports the child's user and system CPU and its peak RSS from {@code wait4}; the wall time is
 * taken here around the run. Prints per variant the medians and the median of the per-round ratios
 * to the first variant (the baseline). A run that exits non-zero stops the bench.
 *
 * <p>The variants come from a file, one per line: a name, then the argv, separated by tabs.
 *
 * <pre>java -cp bench/target/classes dev.capability.bench.WholeProcessRounds VARIANTS-FILE [rounds] [warm-up rounds]</pre>
 */
public final class WholeProcessRounds {
  private WholeProcessRounds() {}

  /** One run: wall and CPU in milliseconds, peak RSS in KiB. */
  private record Run(double wallMillis, double cpuMillis, double peakKib) {}

  public static void main(String[] args) throws Exception {
    Map<String, List<String>> variants = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        List<String> fields = Arrays.asList(line.split("\t"));
        variants.put(fields.get(0), fields.subList(1, fields.size()));
      }
    }
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    String baseline = variants.keySet().iterator().next();
    Map<String, List<Run>> runs = new LinkedHashMap<>();
    variants.keySet().forEach(name -> runs.put(name, new ArrayList<>()));
    List<String> order = new ArrayList<>(variants.keySet());
    Random random = new Random(42);
    Path report = Files.createTempFile("rounds", ".time");
    try {
      for (int round = 0; round < warmUp + rounds; round++) {
        Collections.shuffle(order, random);
        for (String name : order) {
          Run run = run(variants.get(name), report);
          if (round >= warmUp) {
            runs.get(name).add(run);
          }
        }
      }
    } finally {
      Files.deleteIfExists(report);
    }
    System.out.printf(Locale.ROOT, "%d rounds after %d warm-up rounds; load average %s%n", rounds, warmUp,
        Files.readString(Path.of("/proc/loadavg")).strip());
    System.out.printf(Locale.ROOT, "%-16s %10s %10s %10s %9s %9s %9s%n",
        "variant", "wall ms", "cpu ms", "peak MiB", "wall x", "cpu x", "rss x");
    for (String name : variants.keySet()) {
      List<Run> mine = runs.get(name);
      List<Run> base = runs.get(baseline);
      List<Double> wallRatio = new ArrayList<>();
      List<Double> cpuRatio = new ArrayList<>();
      List<Double> rssRatio = new ArrayList<>();
      for (int i = 0; i < rounds; i++) {
        wallRatio.add(mine.get(i).wallMillis() / base.get(i).wallMillis());
        cpuRatio.add(mine.get(i).cpuMillis() / Math.max(10, base.get(i).cpuMillis()));
        rssRatio.add(mine.get(i).peakKib() / base.get(i).peakKib());
      }
      System.out.printf(Locale.ROOT, "%-16s %10.0f %10.0f %10.1f %9.2f %9.2f %9.2f%n", name,
          median(mine.stream().map(Run::wallMillis).toList()),
          median(mine.stream().map(Run::cpuMillis).toList()),
          median(mine.stream().map(Run::peakKib).toList()) / 1024,
          median(wallRatio), median(cpuRatio), median(rssRatio));
    }
  }

  private static Run run(List<String> argv, Path report) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("/usr/bin/time", "-o", report.toString(), "-f", "%U %S %M"));
    command.addAll(argv);
    long started = System.nanoTime();
    Process process = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    int exit = process.waitFor();
    double wall = (System.nanoTime() - started) / 1e6;
    if (exit != 0) {
      throw new IllegalStateException("exit " + exit + " from " + argv);
    }
    String[] fields = Files.readString(report).strip().split("\\s+");
    return new Run(wall, (Double.parseDouble(fields[0]) + Double.parseDouble(fields[1])) * 1000, Double.parseDouble(fields[2]));
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
  }
}
