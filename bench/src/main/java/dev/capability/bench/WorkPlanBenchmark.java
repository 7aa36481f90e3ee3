package dev.capability.bench;

import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.workflow.InMemoryWorkPlanStore;
import dev.capability.workflow.PhaseVerification;
import dev.capability.workflow.WorkPlans;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * What the work-plan layer adds over the kernel runs it contains (issue 17): saving a 20-phase
 * plan against the 20 kernel decisions its validation makes, and verifying a phase against the
 * one kernel run its acceptance command is, with the process backend and a store in memory (the
 * ledger's own cost is LedgerBenchmark's). The command is a copy of {@code /bin/true} under
 * another name, as in KernelPipelineBenchmark.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WorkPlanBenchmark {
  private static final int PHASES = 20;
  private static final String CONTRACT = "{\"version\": 1, \"writeScopes\": [\"src/**\", \"target/**\"]}";

  private Path directory;
  private Path repository;
  private CommandKernel kernel;
  private String plan;
  private List<ExecutionRequest> checks;
  private ExecutionRequest run;
  private WorkPlans verifying;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    directory = Files.createTempDirectory("work-plan-bench").toRealPath();
    Path exit0 = directory.resolve("bench-exit0");
    Files.copy(Path.of("/bin/true").toRealPath(), exit0, StandardCopyOption.COPY_ATTRIBUTES);
    repository = Files.createDirectories(directory.resolve("repo"));
    Files.createDirectories(repository.resolve("src/main"));
    for (int i = 0; i < 20; i++) {
      Files.writeString(repository.resolve("src/main/F" + i + ".java"), "class F" + i + " {}\n");
    }
    ExecutableRule.Builder rule = ExecutableRule.atPath("exit0", exit0);
    for (int i = 0; i < PHASES; i++) {
      rule.exact("p" + i);
    }
    ExecutionPolicy policy = ExecutionPolicy.builder().network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of("src/**", "target/**")).executable(rule.build()).build();
    kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build();
    StringBuilder phases = new StringBuilder();
    checks = new ArrayList<>();
    AuthorityLayer contractLayer = AuthorityLayer.builder(Kind.PROJECT_CONTRACT, "contract").writeScopes(List.of("src/**", "target/**")).build();
    for (int i = 0; i < PHASES; i++) {
      phases.append(i == 0 ? "" : ", ").append("{\"id\": \"p").append(i).append("\", \"goal\": \"g\", \"writeScopes\": [\"src/main/**\"],")
          .append(" \"acceptance\": [\"").append(exit0).append(" p").append(i).append("\"]}");
      checks.add(ExecutionRequest.argv(exit0.toString(), "p" + i).repository(repository).backend("process").layer(contractLayer)
          .layer(AuthorityLayer.builder(Kind.PHASE, "phase").writeScopes(List.of("src/main/**")).build()).build());
    }
    plan = "{\"version\": 1, \"id\": \"bench\", \"phases\": [" + phases + "]}";
    run = ExecutionRequest.command(exit0 + " p0").repository(repository).backend("process").layer(contractLayer)
        .layer(AuthorityLayer.builder(Kind.PHASE, "phase").writeScopes(List.of("src/main/**")).build()).build();
  }

  /** A fresh store each iteration, so that the history a verification reads does not grow without bound. */
  @Setup(Level.Iteration)
  public void freshPlan() {
    verifying = WorkPlans.builder(kernel, new InMemoryWorkPlanStore(), repository).backend("process").build();
    verifying.setContract(CONTRACT);
    verifying.save(plan);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    kernel.close();
    try (var paths = Files.walk(directory)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  /** Contract and 20-phase plan validated and recorded (a fresh store each time). */
  @Benchmark
  public int saveTwentyPhasePlan() {
    WorkPlans plans = WorkPlans.builder(kernel, new InMemoryWorkPlanStore(), repository).backend("process").build();
    plans.setContract(CONTRACT);
    return plans.save(plan).revision();
  }

  /** The baseline of saving: the 20 kernel decisions the validation contains. */
  @Benchmark
  public int twentyKernelChecks() {
    int allowed = 0;
    for (ExecutionRequest request : checks) {
      allowed += kernel.check(request).decision().allowed() ? 1 : 0;
    }
    return allowed;
  }

  /** One phase verified: its acceptance command, the phase-wide audit, the tree hash, the records. */
  @Benchmark
  public boolean verifyPhase() {
    PhaseVerification verification = verifying.verify(false, false);
    if (!verification.passed()) {
      throw new IllegalStateException("benchmark verification failed: " + verification.message());
    }
    return verification.passed();
  }

  /** The baseline of verifying: the one kernel run the phase's acceptance command is. */
  @Benchmark
  public int kernelRunInTheRepository() {
    ExecutionResult result = kernel.execute(run);
    if (!result.succeeded()) {
      throw new IllegalStateException("benchmark command failed: " + result.status() + " " + result.decision());
    }
    return result.exitCode().getAsInt();
  }
}
