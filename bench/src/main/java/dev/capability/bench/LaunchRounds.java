package dev.capability.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * The launch benchmarks of issue 23 interleaved, and its whole-process rows with them, so that one
 * run gives one table: every round runs each variant once, in a shuffled order, so that all of them
 * see the same load on a shared machine. Variants: raw {@code ProcessBuilder} start and wait, the
 * process backend's launch alone and the whole kernel with it ({@link KernelPipelineBenchmark}); raw
 * {@code bwrap} with the backend's flags from {@code ProcessBuilder} and the whole kernel with the
 * bwrap backend ({@link BwrapBenchmark}); and, when CLI class paths or launchers are given, {@code
 * capability exec} of the same command under bwrap as a whole process, one variant per class path
 * or launcher (so a build before a change and one after it run in the same rounds). The raw side of
 * that comparison is the same raw bwrap argv started with {@code ProcessBuilder}, which is what a
 * shell script running it would exec, without the shell.
 *
 * <p>A CLI variant is {@code NAME=CLI_CLASS_PATH}, optionally followed by JVM options for it,
 * separated by blanks (quote the whole argument): {@code 'c1=cli.jar -XX:TieredStopAtLevel=1'}; it
 * runs {@code java -XX:+DisableAttachMechanism OPTIONS -cp CLI_CLASS_PATH dev.capability.cli.Main
 * exec ...}. A launcher variant is {@code launcher:NAME=PATH} (a distribution's {@code
 * bin/capability}): it adds three whole-process rows through that launcher, {@code parse ls -l} and
 * {@code check} of the benchmark's command against the baseline {@code hello} (a bare JVM printing
 * one line, {@link OneLineBaseline}, added once), and {@code exec} of it against raw bwrap.
 * Whole-process rows run through GNU {@code /usr/bin/time}, which reports their CPU (user + system)
 * and peak RSS, each CLI or launcher variant with its own {@code XDG_CACHE_HOME} (its backend probe
 * cache and, through a launcher, its class data archives), made empty for the run: the warm-up
 * rounds fill them.
 *
 * <p>Prints per variant the quartiles of the wall time in milliseconds and the median of the
 * per-round ratios to its baseline, and for whole processes the median CPU and peak RSS with their
 * ratios; then the machine's load average.
 *
 * <pre>
 * java -cp CLASSES:bench/target/benchmarks.jar dev.capability.bench.LaunchRounds \
 *     [rounds] [warm-up rounds] [NAME=CLI_CLASS_PATH[ JVM_OPTION...] | launcher:NAME=PATH ...]
 * </pre>
 */
public final class LaunchRounds {
  private LaunchRounds() {}

  /** One run: wall and CPU in milliseconds, peak RSS in KiB; CPU and RSS are NaN for runs inside this JVM. */
  private record Sample(double wallMillis, double cpuMillis, double peakKib) {}

  /** A variant: how to run it once, and the name of its baseline. */
  private record Variant(Callable<Sample> run, String baseline) {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    KernelPipelineBenchmark process = new KernelPipelineBenchmark();
    BwrapBenchmark bwrap = new BwrapBenchmark();
    process.setUp();
    bwrap.setUp();
    Path policyDirectory = Files.createTempDirectory("launch-rounds-policy");
    Path report = Files.createTempFile("launch-rounds", ".time");
    // Each CLI variant keeps its own caches (XDG_CACHE_HOME): the backend probe cache holds one entry
    // per backend, for one installation's jars, so variants sharing it would re-probe each other's.
    Path caches = Files.createTempDirectory("launch-rounds-caches");
    try {
      Map<String, Variant> variants = new LinkedHashMap<>();
      variants.put("rawProcessBuilder", inProcess(process::rawProcessBuilder, "rawProcessBuilder"));
      variants.put("processBackendLaunch", inProcess(process::processBackendLaunch, "rawProcessBuilder"));
      variants.put("kernelWithProcess", inProcess(process::kernelExecute, "rawProcessBuilder"));
      variants.put("rawBwrap", inProcess(bwrap::rawBwrapFromProcessBuilder, "rawBwrap"));
      variants.put("kernelWithBwrap", inProcess(bwrap::kernelWithBwrap, "rawBwrap"));
      Path policy = writePolicy(policyDirectory, bwrap.exit0());
      List<String> exec =
          List.of(
              "exec",
              "--policy",
              policy.toString(),
              "--repo",
              bwrap.repository().toString(),
              "--no-ledger",
              "--backend",
              "bwrap",
              "--",
              bwrap.exit0().toString());
      List<String> check = List.of("check", "--policy", policy.toString(), "--", bwrap.exit0().toString());
      for (int i = 2; i < args.length; i++) {
        if (args[i].startsWith("launcher:")) {
          String[] named = args[i].substring("launcher:".length()).split("=", 2);
          if (!variants.containsKey("hello")) {
            List<String> hello =
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    Path.of(OneLineBaseline.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                    OneLineBaseline.class.getName());
            variants.put("hello", new Variant(() -> wholeProcess(hello, null, report), "hello"));
          }
          Path cache = Files.createDirectory(caches.resolve("launcher-" + named[0]));
          variants.put("parse-" + named[0], launcher(named[1], List.of("parse", "ls -l"), cache, report, "hello"));
          variants.put("check-" + named[0], launcher(named[1], check, cache, report, "hello"));
          variants.put("exec-" + named[0], launcher(named[1], exec, cache, report, "rawBwrap"));
          continue;
        }
        String[] named = args[i].split("=", 2);
        // The class path, then JVM options for this variant, separated by blanks.
        List<String> classPathAndOptions = List.of(named[1].trim().split("\\s+"));
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.add("-XX:+DisableAttachMechanism");
        argv.addAll(classPathAndOptions.subList(1, classPathAndOptions.size()));
        argv.addAll(List.of("-cp", classPathAndOptions.get(0), "dev.capability.cli.Main"));
        argv.addAll(exec);
        Path cache = Files.createDirectory(caches.resolve("cli-" + named[0]));
        variants.put("cliExec-" + named[0], new Variant(() -> wholeProcess(argv, cache, report), "rawBwrap"));
      }
      Map<String, List<Sample>> samples = new LinkedHashMap<>();
      variants.keySet().forEach(name -> samples.put(name, new ArrayList<>()));
      List<String> order = new ArrayList<>(variants.keySet());
      Random random = new Random(42);
      for (int round = 0; round < warmUp + rounds; round++) {
        Collections.shuffle(order, random);
        for (String name : order) {
          Sample sample = variants.get(name).run().call();
          if (round >= warmUp) {
            samples.get(name).add(sample);
          }
        }
      }
      print(rounds, warmUp, variants, samples);
    } finally {
      process.tearDown();
      bwrap.tearDown();
      Files.deleteIfExists(report);
      try (Stream<Path> files = Files.walk(caches)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(file);
        }
      }
      Files.deleteIfExists(policyDirectory.resolve("policy.json"));
      Files.deleteIfExists(policyDirectory);
    }
  }

  private static void print(int rounds, int warmUp, Map<String, Variant> variants, Map<String, List<Sample>> samples)
      throws IOException {
    System.out.printf(Locale.ROOT, "%d rounds after %d warm-up rounds; wall and CPU in milliseconds%n", rounds, warmUp);
    System.out.printf(
        Locale.ROOT,
        "%-28s %9s %9s %9s %9s %-18s %9s %9s %9s %9s%n",
        "variant",
        "p25",
        "median",
        "p75",
        "wall x",
        "of",
        "CPU",
        "CPU x",
        "peak MiB",
        "RSS x");
    for (Map.Entry<String, List<Sample>> entry : samples.entrySet()) {
      String baselineName = variants.get(entry.getKey()).baseline();
      List<Sample> mine = entry.getValue();
      List<Sample> baseline = samples.get(baselineName);
      List<Double> wallRatios = new ArrayList<>();
      List<Double> cpuRatios = new ArrayList<>();
      List<Double> rssRatios = new ArrayList<>();
      for (int i = 0; i < rounds; i++) {
        wallRatios.add(mine.get(i).wallMillis() / baseline.get(i).wallMillis());
        // The baseline's CPU is at least 10 ms: /usr/bin/time reports it in hundredths of a second.
        cpuRatios.add(mine.get(i).cpuMillis() / Math.max(10, baseline.get(i).cpuMillis()));
        rssRatios.add(mine.get(i).peakKib() / baseline.get(i).peakKib());
      }
      List<Double> walls = mine.stream().map(Sample::wallMillis).toList();
      boolean whole = !Double.isNaN(mine.get(0).cpuMillis());
      // Raw bwrap runs inside this JVM: a whole process is compared with it by wall time alone.
      boolean wholeBaseline = !Double.isNaN(baseline.get(0).cpuMillis());
      System.out.printf(
          Locale.ROOT,
          "%-28s %9.2f %9.2f %9.2f %9.2f %-18s %s%n",
          entry.getKey(),
          quantile(walls, 0.25),
          quantile(walls, 0.5),
          quantile(walls, 0.75),
          quantile(wallRatios, 0.5),
          "of " + baselineName,
          whole
              ? String.format(
                  Locale.ROOT,
                  "%9.0f %9s %9.1f %9s",
                  quantile(mine.stream().map(Sample::cpuMillis).toList(), 0.5),
                  wholeBaseline ? String.format(Locale.ROOT, "%.2f", quantile(cpuRatios, 0.5)) : "-",
                  quantile(mine.stream().map(Sample::peakKib).toList(), 0.5) / 1024,
                  wholeBaseline ? String.format(Locale.ROOT, "%.2f", quantile(rssRatios, 0.5)) : "-")
              : "");
    }
    System.out.printf(Locale.ROOT, "load average after the run: %s%n", Files.readString(Path.of("/proc/loadavg")).strip());
  }

  private static Variant inProcess(Callable<?> call, String baseline) {
    return new Variant(
        () -> {
          long started = System.nanoTime();
          call.call();
          return new Sample((System.nanoTime() - started) / 1e6, Double.NaN, Double.NaN);
        },
        baseline);
  }

  private static Variant launcher(String launcher, List<String> arguments, Path cache, Path report, String baseline) {
    List<String> argv = new ArrayList<>(List.of(launcher));
    argv.addAll(arguments);
    return new Variant(() -> wholeProcess(argv, cache, report), baseline);
  }

  /** The operator policy the CLI runs under: the command, exactly, with no network. */
  private static Path writePolicy(Path directory, Path exit0) throws IOException {
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
    Path policy = directory.resolve("policy.json");
    Files.writeString(
        policy,
        "{\"version\": 1, \"network\": \"none\", \"executables\": {\"exit0\": {\"path\": \""
            + exit0
            + "\", \"exact\": [[]]}}}",
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
    return policy;
  }

  /**
   * Runs {@code argv} through GNU time, with {@code XDG_CACHE_HOME} set to {@code cache} unless it
   * is null; a run that exits non-zero stops the bench.
   */
  private static Sample wholeProcess(List<String> argv, Path cache, Path report) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("/usr/bin/time", "-o", report.toString(), "-f", "%U %S %M"));
    command.addAll(argv);
    ProcessBuilder builder = new ProcessBuilder(command);
    if (cache != null) {
      builder.environment().put("XDG_CACHE_HOME", cache.toString());
    }
    long started = System.nanoTime();
    Process process =
        builder
            .directory(new File("/"))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    int status = process.waitFor();
    double wall = (System.nanoTime() - started) / 1e6;
    if (status != 0) {
      throw new IllegalStateException("exit status " + status + " from " + argv);
    }
    String[] fields = Files.readString(report).strip().split("\\s+");
    return new Sample(
        wall, (Double.parseDouble(fields[0]) + Double.parseDouble(fields[1])) * 1000, Double.parseDouble(fields[2]));
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
