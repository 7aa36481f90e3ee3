package dev.capability.bench;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.workspace.RepositoryWorkspace;
import dev.capability.workspace.WorkspaceOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Throughput of N concurrent runs on a remote daemon over TLS (the workspace shipped in and its
 * writable root brought back through the archive endpoint) against the local socket (the
 * repository bound), for workspaces of 1, 10 and 100 MiB. The command is the host's static
 * busybox running {@code touch out/done}, so the figures are the cost of the container and of the
 * shipping, not of the command.
 *
 * <p>{@code java -cp benchmarks.jar dev.capability.bench.RemoteDockerRounds tcp://127.0.0.1:PORT
 * CERT_DIR [runs-per-thread]}: the remote daemon and the directory of its client's {@code ca.pem},
 * {@code cert.pem}, {@code key.pem} (a second dockerd started as the backend's tests start it, see
 * {@code SecondDockerDaemon}); the local daemon is {@code unix:///var/run/docker.sock}. For each
 * size and each N in 1 and 4, the local and remote batches alternate (warm-up batch first, not
 * counted) and the median seconds per run and the ratio are printed.
 */
public final class RemoteDockerRounds {
  private static final int[] SIZES_MIB = {1, 10, 100};
  private static final int[] CONCURRENCY = {1, 4};
  private static final int FILE_BYTES = 256 * 1024;
  private static final int BATCHES = 3;

  private RemoteDockerRounds() {}

  public static void main(String[] args) throws Exception {
    String host = args[0];
    Path certificates = Path.of(args[1]);
    int runsPerThread = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path busybox = Path.of("/bin/busybox").toRealPath();
    BackendConfig local =
        new BackendConfig(Map.of("docker.host", "unix:///var/run/docker.sock"));
    BackendConfig remote =
        new BackendConfig(
            Map.of(
                "docker.host", host,
                "docker.tls-verify", "true",
                "docker.cert-path", certificates.toString()));
    LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag(), local, step -> {});
    LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag(), remote, step -> {});
    PinnedExecutable executable =
        new PinnedExecutable(
            busybox, Sha256.hex(Files.readAllBytes(busybox)), busybox.toString(), PinnedExecutable.Pinning.PROC_FD);
    Path scratch = Files.createTempDirectory("remote-docker-bench").toRealPath();
    System.out.println("size_mib,concurrency,local_s_per_run,remote_s_per_run,remote_over_local");
    try (ExecutionBackend localBackend = new DockerBackendProvider().create(local);
        ExecutionBackend remoteBackend = new DockerBackendProvider().create(remote)) {
      for (int size : SIZES_MIB) {
        for (int n : CONCURRENCY) {
          List<Path> repositories = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            repositories.add(repository(scratch.resolve(size + "-" + n + "-" + i), size));
          }
          batch(localBackend, executable, repositories, 1, false);
          batch(remoteBackend, executable, repositories, 1, true);
          List<Double> localRuns = new ArrayList<>();
          List<Double> remoteRuns = new ArrayList<>();
          for (int b = 0; b < BATCHES; b++) {
            localRuns.add(batch(localBackend, executable, repositories, runsPerThread, false));
            remoteRuns.add(batch(remoteBackend, executable, repositories, runsPerThread, true));
          }
          double l = median(localRuns);
          double r = median(remoteRuns);
          System.out.printf("%d,%d,%.3f,%.3f,%.2f%n", size, n, l, r, r / l);
        }
      }
    }
  }

  /** Seconds of wall time per run for {@code runs} runs on each of the repositories at once. */
  private static double batch(
      ExecutionBackend backend, PinnedExecutable executable, List<Path> repositories, int runs, boolean shipped)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(repositories.size());
    try {
      long start = System.nanoTime();
      List<Future<?>> futures = new ArrayList<>();
      for (Path repository : repositories) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < runs; i++) {
                    run(backend, executable, repository, shipped);
                  }
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
      return (System.nanoTime() - start) / 1e9 / (runs * repositories.size());
    } finally {
      pool.shutdown();
    }
  }

  private static void run(ExecutionBackend backend, PinnedExecutable executable, Path repository, boolean shipped) {
    Path out = repository.resolve("out");
    LaunchSpec.Builder spec =
        LaunchSpec.builder(executable)
            .arguments(List.of("touch", "out/done"))
            .environment(Map.of())
            .workingDirectory(repository)
            .repository(repository)
            .writableRoots(List.of(out))
            .timeout(Duration.ofMinutes(5));
    RepositoryWorkspace workspace = null;
    if (shipped) {
      workspace = RepositoryWorkspace.builder(repository, "bench").writableRoots(List.of(out)).build();
      spec.workspace(workspace);
    }
    LaunchResult result = backend.launch(spec.build());
    if (result.exitCode().orElse(-1) != 0) {
      throw new IllegalStateException("the run failed: " + result.stderr().text());
    }
    if (workspace != null && workspace.outcome().status() != WorkspaceOutcome.Status.APPLIED) {
      throw new IllegalStateException("the return was not applied: " + workspace.outcome().message());
    }
  }

  private static Path repository(Path repository, int mib) throws IOException {
    Files.createDirectories(repository.resolve("src"));
    Path out = Files.createDirectories(repository.resolve("out"));
    Files.setPosixFilePermissions(repository, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxrwxrwx"));
    Random random = new Random(mib);
    byte[] content = new byte[FILE_BYTES];
    int files = (int) ((long) mib * 1024 * 1024 / FILE_BYTES);
    for (int i = 0; i < files; i++) {
      random.nextBytes(content);
      Files.write(repository.resolve("src/file-" + i + ".bin"), content);
    }
    return repository;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }
}
