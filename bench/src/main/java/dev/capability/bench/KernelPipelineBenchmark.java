package dev.capability.bench;

import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
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
 * The whole kernel pipeline with the process backend against the raw baseline: ProcessBuilder
 * start and wait of the same binary. The binary is a copy of {@code /bin/true} under another
 * name, because the kernel refuses {@code true} itself as a no-op command.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class KernelPipelineBenchmark {
  private Path directory;
  private Path exit0;
  private CommandKernel kernel;
  private ExecutionRequest request;
  private ExecutionBackend backend;
  private LaunchSpec spec;
  private CommandKernel instantKernel;
  private ExecutionRequest instantRequest;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    directory = Files.createTempDirectory("kernel-bench").toRealPath();
    exit0 = directory.resolve("bench-exit0");
    Files.copy(Path.of("/bin/true").toRealPath(), exit0, StandardCopyOption.COPY_ATTRIBUTES);
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST)
        .executable(ExecutableRule.atPath("exit0", exit0).exact().build())
        .build();
    kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build();
    request = ExecutionRequest.argv(exit0.toString()).backend("process").build();
    backend = new ProcessBackendProvider().create(BackendConfig.defaults());
    spec = LaunchSpec.builder(new PinnedExecutable(exit0, "unused", exit0.toString(), PinnedExecutable.Pinning.PROC_FD))
        .workingDirectory(directory)
        .network(NetworkMode.HOST)
        .build();
    instantKernel = CommandKernel.builder(ExecutionPolicies.of(policy))
        .hostEnvironment(Map.of())
        .discoverBackends(false)
        .backend(new InstantBackend())
        .build();
    instantRequest = ExecutionRequest.argv(exit0.toString()).backend("instant").build();
  }

  /** Reports an immediate exit 0 without starting anything, to isolate the kernel's own cost. */
  private static final class InstantBackend implements ExecutionBackend {
    @Override
    public String id() {
      return "instant";
    }

    @Override
    public Set<IsolationCapability> capabilities() {
      return Set.of();
    }

    @Override
    public LaunchResult launch(LaunchSpec spec) {
      Instant now = Instant.now();
      return new LaunchResult(OptionalInt.of(0), false, false, CapturedOutput.empty(), CapturedOutput.empty(), now, now, "none");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    kernel.close();
    instantKernel.close();
    backend.close();
    Files.deleteIfExists(exit0);
    Files.deleteIfExists(directory);
  }

  @Benchmark
  public int kernelExecute() {
    ExecutionResult result = kernel.execute(request);
    if (!result.succeeded()) {
      throw new IllegalStateException("benchmark command failed: " + result.status() + " " + result.decision());
    }
    return result.exitCode().getAsInt();
  }

  @Benchmark
  public int rawProcessBuilder() throws IOException, InterruptedException {
    Process process = new ProcessBuilder(exit0.toString()).start();
    return process.waitFor();
  }

  /** The same start and wait, through util-linux setsid as the process backend does. */
  @Benchmark
  public int rawProcessBuilderThroughSetsid() throws IOException, InterruptedException {
    Process process = new ProcessBuilder("/usr/bin/setsid", "--", exit0.toString()).start();
    return process.waitFor();
  }

  /** The process backend alone: session, output collectors, and the sweep for leftover processes. */
  @Benchmark
  public int processBackendLaunch() {
    return backend.launch(spec).exitCode().getAsInt();
  }

  /** The kernel's own stages (parse, policy, resolve, pin and hash, environment, attest) with a backend that launches nothing. */
  @Benchmark
  public ExecutionResult kernelPipelineWithoutLaunch() {
    return instantKernel.execute(instantRequest);
  }
}
