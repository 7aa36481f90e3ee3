package dev.capability.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * The launch benchmarks of issue 23 interleaved: every round runs each variant once, in a shuffled
 * order, so that all of them see the same load on a shared machine. Variants: raw {@code
 * ProcessBuilder} start and wait, the process backend's launch alone and the whole kernel with it
 * ({@link KernelPipelineBenchmark}); raw {@code bwrap} with the backend's flags from {@code
 * ProcessBuilder} and the whole kernel with the bwrap backend ({@link BwrapBenchmark}); and, when
 * CLI class paths are given, {@code capability exec} of the same command under bwrap as a whole
 * process, one variant per class path (so a build before a change and one after it run in the same
 * rounds). The raw side of that comparison is the same raw bwrap argv started with {@code
 * ProcessBuilder}, which is what a shell script running it would exec, without the shell.
 *
 * <p>Prints per variant the quartiles in milliseconds and the median of the per-round ratios to
 * its baseline.
 *
 * <pre>
 * java -cp CLASSES:bench/target/benchmarks.jar dev.capability.bench.LaunchRounds \
 *     [rounds] [warm-up rounds] [NAME=CLI_CLASS_PATH ...]
 * </pre>
 */
public final class LaunchRounds {
  private LaunchRounds() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    KernelPipelineBenchmark process = new KernelPipelineBenchmark();
    BwrapBenchmark bwrap = new BwrapBenchmark();
    process.setUp();
    bwrap.setUp();
    Path policyDirectory = Files.createTempDirectory("launch-rounds-policy");
    try {
      Map<String, Callable<?>> variants = new LinkedHashMap<>();
      Map<String, String> baselineOf = new LinkedHashMap<>();
      variants.put("rawProcessBuilder", process::rawProcessBuilder);
      variants.put("processBackendLaunch", process::processBackendLaunch);
      variants.put("kernelWithProcess", process::kernelExecute);
      variants.put("rawBwrap", bwrap::rawBwrapFromProcessBuilder);
      variants.put("kernelWithBwrap", bwrap::kernelWithBwrap);
      baselineOf.put("rawProcessBuilder", "rawProcessBuilder");
      baselineOf.put("processBackendLaunch", "rawProcessBuilder");
      baselineOf.put("kernelWithProcess", "rawProcessBuilder");
      baselineOf.put("rawBwrap", "rawBwrap");
      baselineOf.put("kernelWithBwrap", "rawBwrap");
      Path policy = writePolicy(policyDirectory, bwrap.exit0());
      for (int i = 2; i < args.length; i++) {
        String[] named = args[i].split("=", 2);
        List<String> argv =
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+DisableAttachMechanism",
                "-cp",
                named[1],
                "dev.capability.cli.Main",
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
        variants.put("cliExec-" + named[0], () -> run(argv));
        baselineOf.put("cliExec-" + named[0], "rawBwrap");
      }
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
      System.out.printf(
          Locale.ROOT, "%d rounds after %d warm-up rounds; milliseconds%n", rounds, warmUp);
      System.out.printf(
          Locale.ROOT,
          "%-28s %9s %9s %9s %18s%n",
          "variant",
          "p25",
          "median",
          "p75",
          "to baseline (x)");
      for (Map.Entry<String, List<Double>> entry : millis.entrySet()) {
        List<Double> baseline = millis.get(baselineOf.get(entry.getKey()));
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
          ratios.add(entry.getValue().get(i) / baseline.get(i));
        }
        System.out.printf(
            Locale.ROOT,
            "%-28s %9.2f %9.2f %9.2f %9.2f of %-8s%n",
            entry.getKey(),
            quantile(entry.getValue(), 0.25),
            quantile(entry.getValue(), 0.5),
            quantile(entry.getValue(), 0.75),
            quantile(ratios, 0.5),
            baselineOf.get(entry.getKey()));
      }
    } finally {
      process.tearDown();
      bwrap.tearDown();
      Files.deleteIfExists(policyDirectory.resolve("policy.json"));
      Files.deleteIfExists(policyDirectory);
    }
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

  private static int run(List<String> argv) throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(argv)
            .directory(new File("/"))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    int status = process.waitFor();
    if (status != 0) {
      throw new IllegalStateException(
          "capability exec failed with exit status " + status + ": " + out + err);
    }
    return status;
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
