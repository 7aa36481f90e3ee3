package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.policy.PolicyCodes;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.core.LoadedPolicy;
import dev.capability.kernel.core.internal.audit.ChangeKind;
import dev.capability.kernel.core.internal.audit.EntryType;
import dev.capability.workspace.WorkspaceOutcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Stage 10: what the kernel can state about the execution, as an {@link Attestation}. */
final class AttestationFactory {
  private final LoadedPolicy policy;
  private final String kernelVersion;

  AttestationFactory(LoadedPolicy policy, String kernelVersion) {
    this.policy = policy;
    this.kernelVersion = kernelVersion;
  }

  Attestation attest(ExecutionContext context, ExecutionStatus status, Instant finishedAt) {
    CapturedOutput stdout = context.launch == null ? CapturedOutput.empty() : context.launch.stdout();
    CapturedOutput stderr = context.launch == null ? CapturedOutput.empty() : context.launch.stderr();
    Attestation.Environment environment = context.environment == null
        ? new Attestation.Environment(List.of(), List.of())
        : new Attestation.Environment(
            context.environment.inheritedNames(), context.environment.setNames(), context.environment.requestedNames(),
            context.environment.acceptedNames());
    return Attestation.builder()
        .kernelVersion(kernelVersion)
        .status(status)
        .argv(context.argv)
        .commandSpecHash(commandSpecHash(context, environment))
        .decision(context.decision)
        .policyHash(policy.hash())
        .policySource(policy.source())
        .executable(context.pinned == null ? null : Attestation.Executable.of(context.pinned.executable()))
        .backend(context.backend == null ? null : new Attestation.Backend(context.backend.id(), context.backend.capabilities(),
            context.backendChoice, context.backendReason, context.backend.versions()))
        .environment(environment)
        .network(network(context))
        .egress(context.egress)
        .projectWrites(projectWrites(context))
        .writeBoundaries(writeBoundaries(context))
        .createdScopeRoots(context.createdScopeRoots)
        .toolConfiguration(context.toolConfiguration)
        .neutralization(context.neutralization)
        .filesProduced(filesProduced(context))
        .changes(changes(context))
        .violations(violations(context))
        .secrets(secrets(context))
        .inputTreeHash(context.inputTreeHash)
        .stdout(Attestation.Stream.of(stdout))
        .stderr(Attestation.Stream.of(stderr))
        .startedAt(context.launch == null ? context.receivedAt : context.launch.startedAt())
        .finishedAt(context.launch == null ? finishedAt : context.launch.finishedAt())
        .timedOut(context.launch != null && context.launch.timedOut())
        .outputLimitHit(context.launch != null && context.launch.outputLimitHit())
        .exitCode(context.launch == null || context.launch.exitCode().isEmpty() ? null : context.launch.exitCode().getAsInt())
        .workspace(workspace(context))
        .build();
  }

  /** The shipped workspace, when its input was written; absent on local backends, so their attestations keep their form. */
  private static Attestation.@Nullable Workspace workspace(ExecutionContext context) {
    WorkspaceOutcome outcome = context.workspace;
    if (outcome == null || outcome.inputSha256().isEmpty()) {
      return null;
    }
    return new Attestation.Workspace(outcome.inputBytes(), outcome.inputEntries(), outcome.inputSha256().get(), outcome.returnedBytes(),
        outcome.code().orElse(Attestation.Workspace.APPLIED));
  }

  /** The network the command got; before the authority was built, the operator's. */
  private NetworkMode network(ExecutionContext context) {
    if (context.authority == null || context.authority.networkMode().isEmpty()) {
      return policy.policy().network();
    }
    return context.authority.networkMode().get();
  }

  private ProjectWriteMode projectWrites(ExecutionContext context) {
    return context.authority == null ? policy.policy().projectWrites() : context.authority.projectWrites();
  }

  private Attestation.WriteBoundaries writeBoundaries(ExecutionContext context) {
    List<String> operator = policy.policy().writeScopes();
    List<String> contract = scopesOf(context, AuthorityLayer.Kind.PROJECT_CONTRACT);
    List<String> phase = scopesOf(context, AuthorityLayer.Kind.PHASE);
    List<String> correction = scopesOf(context, AuthorityLayer.Kind.CORRECTION);
    return new Attestation.WriteBoundaries(operator, contract, phase, correction);
  }

  private static List<String> scopesOf(ExecutionContext context, AuthorityLayer.Kind kind) {
    return context.request.layers().stream()
        .filter(layer -> layer.kind() == kind)
        .findFirst()
        .flatMap(AuthorityLayer::writeScopes)
        .orElse(null);
  }

  /** Writes no layer allowed, then every egress attempt the proxy refused, in the order they began. */
  private static List<Attestation.Violation> violations(ExecutionContext context) {
    Map<String, String> kinds = new HashMap<>();
    if (context.changes != null) {
      context.changes.changes().forEach(c -> kinds.put(c.path(), c.kind().name()));
    }
    List<Attestation.Violation> violations = new ArrayList<>();
    context.violations.forEach(v -> violations.add(new Attestation.Violation(v.path(), kinds.getOrDefault(v.path(), "CHANGED"),
        v.decision().layer(), v.decision().rule(), v.decision().message())));
    context.egress.stream()
        .filter(c -> c.outcome() == EgressConnection.Outcome.REFUSED)
        .forEach(c -> violations.add(egressViolation(c)));
    return violations;
  }

  /**
   * A refused connection attempt as a violation: the destination as asked, the refusal code as its
   * kind, and the rule that refused it: the operator's allowlist, or one of the proxy's own rules.
   */
  private static Attestation.Violation egressViolation(EgressConnection connection) {
    String reason = Objects.requireNonNull(connection.reason(), "a refused connection has a reason");
    String layer = PolicyCodes.LAYER_BUILTIN;
    String rule;
    switch (reason) {
      case EgressRefusal.NOT_GRANTED, EgressRefusal.IP_LITERAL -> {
        layer = PolicyCodes.LAYER_OPERATOR;
        rule = "egress.allow";
      }
      case EgressRefusal.FORBIDDEN_ADDRESS -> rule = "egress.privateAddresses";
      case EgressRefusal.LIMIT, EgressRefusal.HEADER_TOO_LARGE, EgressRefusal.HANDSHAKE_TIMEOUT -> rule = "egress.limits";
      default -> rule = "egress.protocol";
    }
    return new Attestation.Violation(connection.destination(), reason, layer, rule,
        "the egress proxy refused the " + connection.protocol() + " connection to " + connection.destination()
            + (connection.address() == null ? "" : " (" + connection.address() + ")") + ": " + reason);
  }

  /** Repository paths the command created or gave new content (not deletions, not mode changes, not directories). */
  private static List<String> filesProduced(ExecutionContext context) {
    if (context.changes == null) {
      return List.of();
    }
    return context.changes.changes().stream()
        .filter(c -> c.type() != EntryType.DIRECTORY)
        .filter(c -> c.kind() == ChangeKind.CREATED || c.kind() == ChangeKind.MODIFIED || c.kind() == ChangeKind.TYPE_CHANGED)
        .map(c -> c.path())
        .toList();
  }

  private static List<Attestation.Change> changes(ExecutionContext context) {
    if (context.changes == null) {
      return List.of();
    }
    return context.changes.changes().stream()
        .map(c -> new Attestation.Change(c.path(), c.kind().name(), c.type().name(), c.ignored()))
        .toList();
  }

  private static Attestation.SecretScan secrets(ExecutionContext context) {
    if (context.secrets == null) {
      return Attestation.SecretScan.none();
    }
    return new Attestation.SecretScan(
        context.secrets.findings().stream()
            .map(f -> new Attestation.SecretFinding(f.rule(), f.source(), f.line()))
            .toList(),
        context.secrets.gaps().stream()
            .map(g -> new Attestation.ScanGap(g.source(), g.reason().name()))
            .toList());
  }

  /**
   * SHA-256 of the canonical JSON of what was asked: argv, working directory, repository and the
   * environment names. The same request under the same policy always has the same hash.
   */
  private static String commandSpecHash(ExecutionContext context, Attestation.Environment environment) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("argv", context.argv);
    spec.put("workingDirectory", context.workingDirectory.toString());
    spec.put("repository", context.repository.map(Object::toString).orElse(null));
    Map<String, Object> names = new LinkedHashMap<>();
    names.put("inherited", environment.inherited());
    names.put("set", environment.set());
    if (!environment.requested().isEmpty()) {
      names.put("requested", environment.requested());
    }
    if (!environment.accepted().isEmpty()) {
      names.put("accepted", environment.accepted());
    }
    spec.put("environment", names);
    return CanonicalJson.sha256(spec);
  }
}
