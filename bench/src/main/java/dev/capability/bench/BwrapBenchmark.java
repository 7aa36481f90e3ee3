package dev.capability.bench;

import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * What the bwrap backend costs: the whole kernel pipeline with the {@code bwrap} backend, against a
 * raw {@code bwrap} started from ProcessBuilder with the same namespaces and mounts (no pinned
 * copy, no argument file, no cgroup, no probe of the layout), against the kernel with the {@code
 * process} backend. The command is a copy of {@code /bin/true} under another name, in a repository
 * directory every uid can enter, because a root JVM's sandboxes run as nobody.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class BwrapBenchmark {
  private Path directory;
  private Path repository;
  private Path exit0;
  private CommandKernel kernel;
  private CommandKernel hostNetworkKernel;
  private ExecutionRequest bwrapRequest;
  private ExecutionRequest processRequest;
  private List<String> rawBwrap;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    directory = Files.createTempDirectory("bwrap-bench").toRealPath();
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    repository = Files.createDirectory(directory.resolve("repository"));
    Path bin = Files.createDirectory(directory.resolve("bin"));
    for (Path dir : List.of(repository, bin)) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    exit0 = bin.resolve("bench-exit0");
    Files.copy(Path.of("/bin/true").toRealPath(), exit0, StandardCopyOption.COPY_ATTRIBUTES);
    Files.setPosixFilePermissions(exit0, PosixFilePermissions.fromString("rwxr-xr-x"));
    kernel = kernel(exit0, NetworkMode.NONE);
    // The process backend cannot take the network away, so the kernel only runs it under a policy
    // that grants the host network.
    hostNetworkKernel = kernel(exit0, NetworkMode.HOST);
    bwrapRequest =
        ExecutionRequest.argv(exit0.toString()).repository(repository).backend("bwrap").build();
    processRequest =
        ExecutionRequest.argv(exit0.toString()).repository(repository).backend("process").build();
    rawBwrap = rawBwrapCommand();
  }

  private static CommandKernel kernel(Path exit0, NetworkMode network) {
    ExecutionPolicy policy =
        ExecutionPolicy.builder()
            .network(network)
            .executable(ExecutableRule.atPath("exit0", exit0).exact().build())
            .build();
    return CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    kernel.close();
    hostNetworkKernel.close();
    Files.deleteIfExists(exit0);
    Files.deleteIfExists(exit0.getParent());
    Files.deleteIfExists(repository);
    Files.deleteIfExists(directory);
  }

  /** The copy of {@code /bin/true} the benchmarks run, for runners that start it otherwise. */
  Path exit0() {
    return exit0;
  }

  /** The repository directory the command runs in. */
  Path repository() {
    return repository;
  }

  @Benchmark
  public int kernelWithBwrap() {
    return succeeded(kernel.execute(bwrapRequest));
  }

  @Benchmark
  public int kernelWithProcess() {
    return succeeded(hostNetworkKernel.execute(processRequest));
  }

  @Benchmark
  public int rawBwrapFromProcessBuilder() throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(rawBwrap)
            .directory(new File("/"))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().clear();
    Process process = builder.start();
    process.getInputStream().readAllBytes();
    process.getErrorStream().readAllBytes();
    int status = process.waitFor();
    if (status != 0) {
      throw new IllegalStateException("raw bwrap failed with exit status " + status);
    }
    return status;
  }

  private static int succeeded(ExecutionResult result) {
    if (!result.succeeded()) {
      throw new IllegalStateException(
          "benchmark command failed: "
              + result.status()
              + " "
              + result.decision()
              + " "
              + (result.failureMessage() == null ? "" : result.failureMessage()));
    }
    return result.exitCode().getAsInt();
  }

  /** The namespaces and mounts the backend uses, on bwrap's command line. */
  private List<String> rawBwrapCommand() throws IOException {
    List<String> argv = new ArrayList<>();
    if (ProcessHandle.current().info().user().filter("root"::equals).isPresent()) {
      argv.addAll(
          List.of(
              "/usr/bin/setpriv",
              "--reuid=65534",
              "--regid=65534",
              "--clear-groups",
              "--inh-caps=-all",
              "--bounding-set=-all",
              "--no-new-privs",
              "--"));
    }
    argv.addAll(
        List.of(
            "/usr/bin/bwrap",
            "--unshare-user",
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup",
            "--unshare-net",
            "--disable-userns",
            "--assert-userns-disabled",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--hostname",
            "sandbox",
            "--clearenv"));
    for (String top : List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")) {
      Path path = Path.of(top);
      if (Files.isSymbolicLink(path)) {
        argv.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), top));
      } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        argv.addAll(List.of("--ro-bind", top, top));
      }
    }
    Stream.of("hosts", "resolv.conf", "nsswitch.conf", "ld.so.cache")
        .map(name -> Path.of("/etc", name))
        .filter(p -> Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(p))
        .forEach(p -> argv.addAll(List.of("--ro-bind", p.toString(), p.toString())));
    argv.addAll(
        List.of(
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--size",
            Long.toString(16L << 20),
            "--tmpfs",
            "/dev/shm",
            "--size",
            Long.toString(64L << 20),
            "--tmpfs",
            "/tmp",
            "--ro-bind",
            repository.toString(),
            repository.toString(),
            "--ro-bind",
            exit0.toString(),
            exit0.toString(),
            "--remount-ro",
            "/dev",
            "--remount-ro",
            "/",
            "--chdir",
            repository.toString(),
            "--",
            exit0.toString()));
    return List.copyOf(argv);
  }
}
