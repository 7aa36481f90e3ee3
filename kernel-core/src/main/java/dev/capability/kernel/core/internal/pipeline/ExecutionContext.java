package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressGateway;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.core.internal.audit.RepositoryChanges;
import dev.capability.kernel.core.internal.audit.RepositorySnapshot;
import dev.capability.kernel.core.internal.audit.SecretScanReport;
import dev.capability.kernel.core.internal.authority.EffectiveAuthority;
import dev.capability.kernel.core.internal.authority.WriteViolation;
import dev.capability.kernel.core.internal.exec.ExecutablePinner;
import dev.capability.kernel.core.internal.policy.EnvironmentSanitizer.SanitizedEnvironment;
import dev.capability.workspace.WorkspaceOutcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the stages learn about one execution, filled in stage by stage. A denial ends the
 * pipeline: later stages never see a denied context.
 */
public final class ExecutionContext implements AutoCloseable {
  final ExecutionRequest request;
  final Instant receivedAt;
  final Path workingDirectory;
  final Optional<Path> repository;

  List<String> argv = List.of();
  Decision decision;
  Optional<ExecutableRule> rule = Optional.empty();
  EffectiveAuthority authority;
  /** argv and environment as launched: the decided ones, unless git neutralization added to them. */
  List<String> launchArgv;
  Map<String, String> launchEnvironment;
  SortedMap<String, String> toolConfiguration = new TreeMap<>();
  List<String> neutralization = List.of();
  SanitizedEnvironment environment;
  ExecutablePinner.Pinned pinned;
  final Set<IsolationCapability> requiredCapabilities = EnumSet.noneOf(IsolationCapability.class);
  ExecutionBackend backend;
  /** The gateway that opens the run's egress proxy; set exactly when the network is filtered. */
  EgressGateway egressGateway;
  /** Every connection attempt through the run's egress proxy, once it has closed. */
  List<EgressConnection> egress = List.of();
  /** Write-scope roots the kernel created before launch, repository-relative, parents first. */
  List<String> createdScopeRoots = List.of();
  /** How and why {@link #backend} was chosen, for the attestation. */
  Attestation.Backend.Choice backendChoice;
  String backendReason;
  RepositorySnapshot snapshot;
  String inputTreeHash;
  LaunchResult launch;
  String launchFailure;
  /** What became of the workspace shipped to a {@code REMOTE_WORKSPACE} backend; null when none was shipped. */
  WorkspaceOutcome workspace;
  RepositoryChanges changes;
  List<WriteViolation> violations = List.of();
  SecretScanReport secrets;

  ExecutionContext(ExecutionRequest request, Instant receivedAt, Path workingDirectory, Optional<Path> repository) {
    this.request = request;
    this.receivedAt = receivedAt;
    this.workingDirectory = workingDirectory;
    this.repository = repository;
  }

  void deny(Decision denial) {
    if (denial.allowed()) {
      throw new IllegalArgumentException("deny() needs a denial, got " + denial);
    }
    this.decision = denial;
  }

  boolean denied() {
    return decision != null && !decision.allowed();
  }

  /** Releases the pinned executable's descriptor. */
  @Override
  public void close() {
    if (pinned != null) {
      pinned.close();
      pinned = null;
    }
  }
}
