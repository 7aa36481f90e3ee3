package dev.capability.bench;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * What a container costs through the docker backend (create, attach, start, wait, remove over the
 * API, plus the pinned copy and the layout checks) against {@code docker run --rm} from
 * ProcessBuilder with the same image, entrypoint, flags and binds. The command is a copy of {@code
 * /bin/true}. Needs a daemon and the local runtime image, which setup builds when missing.
 *
 * <p>JMH runs the two one after the other, so a machine whose load changes between them skews the
 * ratio; {@link #main} runs them alternately, one of each per round, and prints both medians and
 * their ratio: {@code java -cp benchmarks.jar dev.capability.bench.DockerBenchmark 60}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 4, time = 10)
@Fork(1)
public class DockerBenchmark {
  private Path directory;
  private Path repository;
  private Path exit0;
  private ExecutionBackend backend;
  private LaunchSpec spec;
  private List<String> dockerRun;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    directory = Files.createTempDirectory("docker-bench").toRealPath();
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    repository = Files.createDirectory(directory.resolve("repository"));
    Files.setPosixFilePermissions(repository, PosixFilePermissions.fromString("rwxr-xr-x"));
    exit0 = repository.resolve("bench-exit0");
    Files.copy(Path.of("/bin/true").toRealPath(), exit0, StandardCopyOption.COPY_ATTRIBUTES);
    Files.setPosixFilePermissions(exit0, PosixFilePermissions.fromString("rwxr-xr-x"));
    backend = new DockerBackendProvider().create(BackendConfig.defaults());
    spec =
        LaunchSpec.builder(
                new PinnedExecutable(
                    exit0,
                    Sha256.hex(Files.readAllBytes(exit0)),
                    exit0.toString(),
                    PinnedExecutable.Pinning.PROC_FD))
            .workingDirectory(repository)
            .repository(repository)
            .build();
    dockerRun = dockerRunCommand();
  }

  /** The CLI equivalent of what the backend asks the daemon for, binds included. */
  private List<String> dockerRunCommand() {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "docker",
                "run",
                "--rm",
                "--interactive",
                "--read-only",
                "--cap-drop",
                "ALL",
                "--security-opt",
                "no-new-privileges",
                "--user",
                "65534:65534",
                "--network",
                "none",
                "--pids-limit",
                "512",
                "--memory",
                "1g",
                "--memory-swap",
                "1g",
                "--cpus",
                "1",
                "--tmpfs",
                "/tmp:rw,noexec,nosuid,nodev,size=67108864",
                "--shm-size",
                "16m",
                "--ipc",
                "private",
                "--log-driver",
                "none",
                "--hostname",
                "sandbox",
                "--label",
                "dev.capability.sdk=1",
                "--workdir",
                repository.toString()));
    for (String dir : List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")) {
      Path path = Path.of(dir);
      if (Files.isDirectory(path) && !Files.isSymbolicLink(path)) {
        argv.add("--mount");
        argv.add("type=bind,source=" + dir + ",target=" + dir + ",readonly");
      }
    }
    argv.add("--mount");
    argv.add("type=bind,source=" + repository + ",target=" + repository + ",readonly");
    argv.add("--entrypoint");
    argv.add("/opt/capability/bin/ck-launch");
    argv.add(LocalRuntimeImage.defaultTag());
    argv.addAll(List.of("/opt/capability/bin/tini", "--", exit0.toString()));
    return argv;
  }

  /** Alternates the two, {@code args[0]} rounds (default 40) after 5 of warm-up, and prints medians. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    DockerBenchmark bench = new DockerBenchmark();
    bench.setUp();
    try {
      long[] backendNanos = new long[rounds];
      long[] cliNanos = new long[rounds];
      for (int i = -5; i < rounds; i++) {
        long start = System.nanoTime();
        bench.backendCreateStartWaitRemove();
        long middle = System.nanoTime();
        bench.dockerRunRmFromProcessBuilder();
        long end = System.nanoTime();
        if (i >= 0) {
          backendNanos[i] = middle - start;
          cliNanos[i] = end - middle;
        }
      }
      double backend = median(backendNanos) / 1e6;
      double cli = median(cliNanos) / 1e6;
      System.out.printf(
          "rounds %d: backend median %.1f ms, docker run --rm median %.1f ms, ratio %.2f%n",
          rounds, backend, cli, backend / cli);
    } finally {
      bench.tearDown();
    }
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    backend.close();
    Files.deleteIfExists(exit0);
    Files.deleteIfExists(repository);
    Files.deleteIfExists(directory);
  }

  @Benchmark
  public int backendCreateStartWaitRemove() {
    LaunchResult result = backend.launch(spec);
    if (result.exitCode().orElse(-1) != 0) {
      throw new IllegalStateException("the container failed: " + result.stderr().text());
    }
    return result.exitCode().getAsInt();
  }

  @Benchmark
  public int dockerRunRmFromProcessBuilder() throws IOException, InterruptedException {
    Process process = new ProcessBuilder(dockerRun).redirectErrorStream(true).start();
    // The launcher's empty environment block, as the backend sends it; then end of input.
    try (java.io.OutputStream stdin = process.getOutputStream()) {
      stdin.write("0\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
    byte[] output = process.getInputStream().readAllBytes();
    int status = process.waitFor();
    if (status != 0) {
      throw new IllegalStateException(
          "docker run failed with " + status + ": " + new String(output, java.nio.charset.StandardCharsets.UTF_8));
    }
    return status;
  }
}
