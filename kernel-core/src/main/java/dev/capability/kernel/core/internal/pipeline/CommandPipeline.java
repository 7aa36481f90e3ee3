package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.backend.ResourceBound;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.core.CheckResult;
import dev.capability.kernel.core.LoadedPolicy;
import dev.capability.kernel.core.internal.audit.AuditException;
import dev.capability.kernel.core.internal.backend.BackendRegistry;
import dev.capability.kernel.core.internal.egress.EgressGatewaySource;
import dev.capability.kernel.core.internal.exec.ExecutablePinner;
import dev.capability.kernel.core.internal.exec.ExecutableResolver;
import dev.capability.kernel.core.internal.exec.ExecutableTrust;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer;
import dev.capability.kernel.core.internal.policy.EnvironmentSanitizer;
import dev.capability.workspace.WorkspaceOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The command pipeline, in order. Deciding: parse, authorize, sanitize the environment, resolve
 * and pin the executable, select the backend. Then create missing write-scope roots, snapshot the
 * repository, launch, audit what changed, and attest. A denial at any deciding stage, or while
 * creating the roots, ends the pipeline with an attested {@link ExecutionStatus#DENIED} result.
 * Launching runs on one repository take turns ({@link RepositoryLock}), so each audit sees only
 * its own run's changes.
 */
public final class CommandPipeline {
  /** The request's working directory is not a readable directory. */
  public static final String WORKING_DIRECTORY_INVALID = "WORKING_DIRECTORY_INVALID";

  private final List<Stage> deciding;
  private final List<Stage> launching;
  private final AttestationFactory attestations;
  private final Clock clock;
  private final Path hostWorkingDirectory;

  public CommandPipeline(
      LoadedPolicy policy,
      BackendRegistry backends,
      EgressGatewaySource gateways,
      ExecutablePinner pinner,
      Map<String, String> hostEnvironment,
      Path hostWorkingDirectory,
      Clock clock,
      String kernelVersion) {
    this.deciding = List.of(
        new ParseStage(),
        new AuthorizeStage(policy.policy(), new CommandAuthorizer()),
        new EnvironmentStage(policy.policy(), new EnvironmentSanitizer(), hostEnvironment),
        new ResolveExecutableStage(policy.policy(), new ExecutableResolver(), pinner, ExecutableTrust.forThisProcess()),
        new ToolConfigurationStage(policy.policy()),
        new SelectBackendStage(policy.policy(), backends, gateways));
    this.launching = List.of(
        new CreateScopeRootsStage(), new SnapshotStage(), new LaunchStage(policy.policy()), new AuditStage());
    this.attestations = new AttestationFactory(policy, kernelVersion);
    this.clock = clock;
    this.hostWorkingDirectory = hostWorkingDirectory;
  }

  public ExecutionResult execute(ExecutionRequest request) {
    try (ExecutionContext context = newContext(request)) {
      run(deciding, context);
      if (context.denied() || context.repository.isEmpty()) {
        run(launching, context);
      } else {
        RepositoryLock turn = RepositoryLock.acquire(context.repository.get());
        try {
          run(launching, context);
        } finally {
          turn.close();
        }
      }
      return result(context);
    }
  }

  public CheckResult check(ExecutionRequest request) {
    try (ExecutionContext context = newContext(request)) {
      try {
        run(deciding, context);
      } catch (BackendUnavailableException e) {
        context.deny(Decision.deny(e.code(), "backend", "backend.select", e.getMessage()));
      } catch (NetworkFilterUnavailableException e) {
        context.deny(Decision.deny(e.code(), "backend", "network.filtered", e.getMessage()));
      }
      return new CheckResult(
          context.argv,
          context.decision,
          Optional.ofNullable(context.pinned).map(p -> p.executable().path().toString()),
          Optional.ofNullable(context.pinned).map(p -> p.executable().sha256()),
          Optional.ofNullable(context.backend).map(b -> b.id()));
    }
  }

  /** Applies {@code stages} in order until one denies. */
  private static void run(List<Stage> stages, ExecutionContext context) {
    for (Stage stage : stages) {
      if (context.denied()) {
        return;
      }
      stage.apply(context);
    }
  }

  private ExecutionContext newContext(ExecutionRequest request) {
    Optional<Path> repository = request.repository().map(r -> directory(r, AuditException.REPOSITORY_INVALID, "repository"));
    Path workingDirectory = directory(
        request.workingDirectory().orElse(repository.orElse(hostWorkingDirectory)),
        WORKING_DIRECTORY_INVALID, "working directory");
    return new ExecutionContext(request, clock.instant(), workingDirectory, repository);
  }

  private static Path directory(Path path, String code, String what) {
    try {
      Path canonical = path.toRealPath();
      if (!Files.isDirectory(canonical)) {
        throw new CapabilityException(code, "the " + what + " " + path + " is not a directory");
      }
      return canonical;
    } catch (IOException e) {
      throw new CapabilityException(code, "the " + what + " " + path + " does not exist or cannot be read: " + e.getMessage(), e);
    }
  }

  private ExecutionResult result(ExecutionContext context) {
    ExecutionStatus status = status(context);
    var attestation = attestations.attest(context, status, clock.instant());
    return new ExecutionResult(
        status,
        context.decision,
        context.argv,
        context.launch == null ? OptionalInt.empty() : context.launch.exitCode(),
        context.launch == null ? CapturedOutput.empty() : context.launch.stdout(),
        context.launch == null ? CapturedOutput.empty() : context.launch.stderr(),
        attestation,
        failureMessage(context, status));
  }

  private static String failureMessage(ExecutionContext context, ExecutionStatus status) {
    if (status == ExecutionStatus.WORKSPACE_REFUSED) {
      return context.workspace.code().orElseThrow() + ": " + context.workspace.message();
    }
    return context.launchFailure;
  }

  private static ExecutionStatus status(ExecutionContext context) {
    if (context.denied()) {
      return ExecutionStatus.DENIED;
    }
    if (context.launchFailure != null) {
      return ExecutionStatus.LAUNCH_FAILED;
    }
    // Effects the kernel did not accept win over how the run ended: the caller must not take them as made.
    if (context.workspace != null && context.workspace.status() != WorkspaceOutcome.Status.APPLIED) {
      return ExecutionStatus.WORKSPACE_REFUSED;
    }
    if (context.launch.timedOut()) {
      return ExecutionStatus.TIMED_OUT;
    }
    if (context.launch.outputLimitHit()) {
      return ExecutionStatus.OUTPUT_LIMIT;
    }
    // The bound that ended the run first; one the command survived after it (a refused fork, say) last.
    if (context.launch.hit(ResourceBound.WRITE_BUDGET)) {
      return ExecutionStatus.WRITE_LIMIT;
    }
    if (context.launch.hit(ResourceBound.MEMORY)) {
      return ExecutionStatus.MEMORY_LIMIT;
    }
    if (context.launch.hit(ResourceBound.FILE_SIZE)) {
      return ExecutionStatus.FILE_SIZE_LIMIT;
    }
    if (context.launch.hit(ResourceBound.PROCESSES)) {
      return ExecutionStatus.PROCESS_LIMIT;
    }
    return ExecutionStatus.COMPLETED;
  }
}
