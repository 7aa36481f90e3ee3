package dev.capability.workflow.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.AssumptionStore;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.CorrectionVerificationRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.InvalidationRecord;
import dev.capability.kernel.api.store.OutcomeRecord;
import dev.capability.kernel.api.store.ScopeExpansionRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanStore;
import dev.capability.kernel.core.AuthorityLayers;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.WorkingTrees;
import dev.capability.kernel.core.WritePaths;
import dev.capability.workflow.Assumption;
import dev.capability.workflow.AssumptionCodes;
import dev.capability.workflow.AssumptionState;
import dev.capability.workflow.CommandRun;
import dev.capability.workflow.CorrectionOutcome;
import dev.capability.workflow.CorrectionRadius;
import dev.capability.workflow.FailureRecord;
import dev.capability.workflow.Invalidation;
import dev.capability.workflow.Phase;
import dev.capability.workflow.PhaseVerification;
import dev.capability.workflow.ProjectContract;
import dev.capability.workflow.RadiusBounds;
import dev.capability.workflow.ScopeExpansion;
import dev.capability.workflow.WorkPlan;
import dev.capability.workflow.WorkPlanRevision;
import dev.capability.workflow.WorkPlans;
import dev.capability.workflow.WorkflowCodes;
import dev.capability.workflow.WorkflowException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The assumption operations behind {@link dev.capability.workflow.Assumptions}. */
public final class AssumptionService {
  private final WorkPlanStore plans;
  private final AssumptionStore store;
  private final CommandKernel kernel;
  private final Path repository;
  private final Clock clock;
  private final RadiusBounds bounds;
  private final WorkPlans workPlans;

  public AssumptionService(WorkPlanStore plans, AssumptionStore store, CommandKernel kernel, Path repository, Clock clock, RadiusBounds bounds) {
    this.plans = plans;
    this.store = store;
    this.kernel = kernel;
    this.repository = repository;
    this.clock = clock;
    this.bounds = bounds;
    this.workPlans = WorkPlans.builder(kernel, plans, repository).clock(clock).build();
  }

  public AssumptionState record(String json) {
    AssumptionJson.Draft draft = AssumptionJson.read(json);
    WorkPlanRevision current = requireCurrent();
    Phase phase = activePhase(current.plan());
    Map<String, Assumption> existing = assumptions();
    if (existing.containsKey(draft.id())) {
      throw new WorkflowException(AssumptionCodes.ASSUMPTION_EXISTS, "an assumption \"" + draft.id() + "\" is recorded already; record a new one");
    }
    Set<String> phaseIds = new HashSet<>();
    current.plan().phases().forEach(p -> phaseIds.add(p.id()));
    for (int i = 0; i < draft.phases().size(); i++) {
      if (!phaseIds.contains(draft.phases().get(i))) {
        throw new WorkflowException(AssumptionCodes.ASSUMPTION_LINK_UNKNOWN, "the assumption at /links/phases/" + i + ": the work plan \""
            + current.plan().id() + "\" has no phase \"" + draft.phases().get(i) + "\"");
      }
    }
    for (int i = 0; i < draft.dependents().size(); i++) {
      String dependent = draft.dependents().get(i);
      if (dependent.equals(draft.id())) {
        throw new WorkflowException(AssumptionCodes.ASSUMPTION_LINK_CYCLE, "the assumption at /links/assumptions/" + i + ": \"" + draft.id()
            + "\" cannot depend on itself; a cycle would leave the radius without an end");
      }
      if (!existing.containsKey(dependent)) {
        throw new WorkflowException(AssumptionCodes.ASSUMPTION_LINK_UNKNOWN, "the assumption at /links/assumptions/" + i + ": no assumption \""
            + dependent + "\" is recorded; record the assumptions that depend on this one first");
      }
    }
    Assumption assumption = new Assumption(draft.id(), current.plan().id(), phase.id(), draft.statement(), draft.rejectedAlternatives(),
        draft.confidence(), draft.files(), draft.phases(), draft.dependents());
    Map<String, Assumption> graph = new LinkedHashMap<>(existing);
    graph.put(assumption.id(), assumption);
    refuseCycle(graph, assumption.id());
    long sequence = store.recordAssumption(new AssumptionRecord(assumption.id(), assumption.workPlanId(), assumption.phaseId(),
        AssumptionJson.toMap(assumption)));
    return new AssumptionState(assumption, sequence, Optional.empty(), List.of(), List.of(), Optional.empty());
  }

  public List<AssumptionState> list() {
    List<AssumptionState> out = new ArrayList<>();
    for (Stored<AssumptionRecord> stored : store.assumptions()) {
      out.add(state(stored));
    }
    return out;
  }

  public AssumptionState show(String assumptionId) {
    return requireState(assumptionId);
  }

  public Invalidation invalidate(String assumptionId, String rootCause) {
    if (rootCause == null || rootCause.isBlank()) {
      throw new WorkflowException(AssumptionCodes.ROOT_CAUSE_REQUIRED, "invalidating \"" + assumptionId + "\" needs a root cause that is not blank");
    }
    AssumptionState state = requireState(assumptionId);
    requireNotClosed(state);
    if (state.invalidation().isPresent()) {
      throw new WorkflowException(AssumptionCodes.ASSUMPTION_ALREADY_INVALIDATED, "the assumption \"" + assumptionId + "\" was invalidated already"
          + " (record " + state.invalidation().get().sequence() + ")");
    }
    ProjectContract contract = requireContract();
    WorkPlanRevision current = requireCurrent();
    Phase phase = activePhase(current.plan());
    Map<String, String> manifest = WorkingTrees.manifest(repository);
    List<String> treeFiles = manifest.entrySet().stream().filter(e -> e.getValue().startsWith("file:")).map(Map.Entry::getKey).toList();
    CorrectionRadius radius = RadiusCalculator.compute(state.assumption(), assumptions(), current.plan().phases(), treeFiles, bounds,
        files -> refusedByPhase(contract, phase, files));
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("workPlanId", current.plan().id());
    details.put("planRevision", current.revision());
    details.put("phaseId", phase.id());
    details.put("excluded", radius.excluded());
    details.put("reachedAssumptions", radius.reachedAssumptions());
    details.put("reachedPhases", radius.reachedPhases());
    details.put("maxDepth", bounds.maxDepth());
    details.put("maxFiles", bounds.maxFiles());
    details.put("depthBoundReached", radius.depthBoundReached());
    details.put("fileBoundReached", radius.fileBoundReached());
    details.put("manifest", manifest);
    details.put("invalidatedAt", clock.instant().toString());
    long sequence = store.recordCorrection(new InvalidationRecord(assumptionId, rootCause, radius.files(), details));
    return new Invalidation(assumptionId, rootCause, phase.id(), radius, sequence);
  }

  public ScopeExpansion expand(String assumptionId, List<String> paths, String justification) {
    if (justification == null || justification.isBlank()) {
      throw new WorkflowException(AssumptionCodes.JUSTIFICATION_REQUIRED, "expanding the correction of \"" + assumptionId
          + "\" needs a justification that is not empty or blank");
    }
    if (paths == null || paths.isEmpty()) {
      throw new WorkflowException(AssumptionCodes.EXPANSION_INVALID, "an expansion adds at least one path");
    }
    AssumptionState state = requireInvalidatedAndOpen(assumptionId);
    ProjectContract contract = requireContract();
    Phase phase = correctionPhase(state);
    List<AuthorityLayer> outer = List.of(AuthorityLayer.operator(kernel.policy().policy()), contract.layer(), phase.layer());
    Set<String> distinct = new LinkedHashSet<>();
    for (String path : paths) {
      if (path == null || !RadiusCalculator.isRepositoryPath(path)) {
        throw new WorkflowException(AssumptionCodes.EXPANSION_INVALID, "the expansion's path \"" + path + "\" is not a repository-relative"
            + " path or glob");
      }
      try {
        WritePaths.requireValidPattern(path);
      } catch (AuthorityException e) {
        throw new WorkflowException(AssumptionCodes.EXPANSION_INVALID, "the expansion's path \"" + path + "\": " + e.getMessage(), e);
      }
      AuthorityLayer inner = AuthorityLayer.builder(AuthorityLayer.Kind.CORRECTION, "expansion of the correction of " + assumptionId)
          .writeScopes(List.of(path)).build();
      for (AuthorityLayer layer : outer) {
        try {
          AuthorityLayers.requireWithin(layer, inner);
        } catch (AuthorityException e) {
          throw new WorkflowException(AssumptionCodes.EXPANSION_OUTSIDE_PHASE, "the expansion \"" + path + "\" goes beyond the authority of phase \""
              + phase.id() + "\": " + e.getMessage(), e);
        }
      }
      distinct.add(path);
    }
    List<String> added = List.copyOf(distinct);
    long sequence = store.recordCorrection(new ScopeExpansionRecord(assumptionId, added, justification));
    return new ScopeExpansion(assumptionId, added, justification, sequence);
  }

  /** The correction layer of an invalidated assumption: its radius and expansions as write scopes; read-only when both are empty. */
  public AuthorityLayer correctionLayer(String assumptionId) {
    AssumptionState state = requireState(assumptionId);
    return correctionLayer(requireInvalidated(state), state.expansions());
  }

  public PhaseVerification verify(String assumptionId) {
    AssumptionState state = requireInvalidatedAndOpen(assumptionId);
    ProjectContract contract = requireContract();
    WorkPlanRevision current = requireCurrent();
    Phase phase = correctionPhase(state);
    List<AuthorityLayer> layers = List.of(contract.layer(), phase.layer(), correctionLayer(state));
    Map<String, String> since = invalidationManifest(assumptionId);

    List<CommandRun> runs = new ArrayList<>();
    List<Long> sequences = new ArrayList<>();
    List<Attestation.SecretFinding> secrets = new ArrayList<>();
    String failureCode = null;
    String message = "every check passed";
    for (String command : phase.acceptance()) {
      CommandRun run = run(command, layers, sequences, secrets);
      runs.add(run);
      if (!run.passed()) {
        failureCode = WorkflowCodes.COMMAND_FAILED;
        message = "the acceptance command \"" + command + "\" did not pass: " + run.status()
            + run.exitCode().map(code -> " with exit status " + code).orElse("");
        break;
      }
    }
    WorkingTrees.ChangeAudit audit = WorkingTrees.audit(kernel.policy(), layers, contract.protectedPaths(), repository, since);
    if (failureCode == null && !audit.violations().isEmpty()) {
      failureCode = WorkflowCodes.PHASE_SCOPE_VIOLATION;
      message = "since \"" + assumptionId + "\" was invalidated, paths outside its correction radius and justified expansions changed: "
          + audit.violations().stream().map(v -> v.path() + " (" + v.reason() + ")").toList();
    }
    secrets.addAll(audit.secrets().findings());
    if (failureCode == null && !secrets.isEmpty()) {
      failureCode = WorkflowCodes.SECRET_FOUND;
      message = "the secret scan flagged " + secrets.stream().map(s -> s.source() + ":" + s.line() + " (" + s.rule() + ")").toList();
    }
    Map<String, String> after = WorkingTrees.manifest(repository);
    PhaseVerification unrecorded = new PhaseVerification(current.plan().id(), current.revision(), phase.id(), failureCode == null,
        Optional.ofNullable(failureCode), message, runs, false, audit.changedPaths(), audit.violations(), secrets, Optional.empty(),
        WorkingTrees.treeHash(repository), digest(after), 1);
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("workPlanId", current.plan().id());
    details.put("planRevision", current.revision());
    details.put("phaseId", phase.id());
    details.put("verification", VerificationJson.toMap(unrecorded));
    long sequence = store.recordCorrection(new CorrectionVerificationRecord(assumptionId, unrecorded.passed(), sequences, details));
    return VerificationJson.fromMap(current.plan().id(), current.revision(), phase.id(), sequence, VerificationJson.toMap(unrecorded));
  }

  public CorrectionOutcome resolve(String assumptionId, String reason) {
    AssumptionState state = requireInvalidatedAndOpen(assumptionId);
    PhaseVerification last = state.verifications().isEmpty() ? null : state.verifications().get(state.verifications().size() - 1);
    if (last == null || !last.passed()) {
      throw new WorkflowException(AssumptionCodes.CORRECTION_NOT_VERIFIED, "the correction of \"" + assumptionId + "\" has "
          + (last == null ? "no verification" : "a failing last verification (" + last.failureCode().orElseThrow() + ": " + last.message() + ")")
          + "; verify it first");
    }
    if (!digest(WorkingTrees.manifest(repository)).equals(last.contentDigest())) {
      throw new WorkflowException(WorkflowCodes.EVIDENCE_STALE, "the working tree changed after the correction of \"" + assumptionId
          + "\" was verified (record " + last.sequence() + "); verify it again");
    }
    String said = reason == null ? "" : reason;
    long sequence = store.recordCorrection(new OutcomeRecord(assumptionId, true, Optional.of(last.sequence()), said));
    return new CorrectionOutcome(assumptionId, true, Optional.of(last.sequence()), said, sequence);
  }

  public CorrectionOutcome abandon(String assumptionId, String reason) {
    if (reason == null || reason.isBlank()) {
      throw new WorkflowException(AssumptionCodes.JUSTIFICATION_REQUIRED, "abandoning the correction of \"" + assumptionId
          + "\" needs a reason that is not empty or blank");
    }
    AssumptionState state = requireState(assumptionId);
    requireNotClosed(state);
    Optional<Long> last = state.verifications().isEmpty() ? Optional.empty()
        : Optional.of(state.verifications().get(state.verifications().size() - 1).sequence());
    long sequence = store.recordCorrection(new OutcomeRecord(assumptionId, false, last, reason));
    return new CorrectionOutcome(assumptionId, false, last, reason, sequence);
  }

  private Map<String, String> refusedByPhase(ProjectContract contract, Phase phase, List<String> files) {
    Map<String, Decision> refused = WritePaths.refused(kernel.policy(), List.of(contract.layer(), phase.layer()), contract.protectedPaths(),
        repository, files);
    Map<String, String> reasons = new TreeMap<>();
    refused.forEach((path, decision) -> reasons.put(path, "outside the authority of phase \"" + phase.id() + "\": " + decision.code()
        + " (" + decision.layer() + ")"));
    return reasons;
  }

  private AuthorityLayer correctionLayer(Invalidation invalidation, List<ScopeExpansion> expansions) {
    TreeSet<String> scopes = new TreeSet<>(invalidation.radius().files());
    expansions.forEach(e -> scopes.addAll(e.paths()));
    AuthorityLayer.Builder layer = AuthorityLayer.builder(AuthorityLayer.Kind.CORRECTION, "correction of assumption " + invalidation.assumptionId());
    if (scopes.isEmpty()) {
      layer.projectWrites(ProjectWriteMode.READ_ONLY);
    } else {
      layer.writeScopes(List.copyOf(scopes));
    }
    return layer.build();
  }

  private AuthorityLayer correctionLayer(AssumptionState state) {
    return correctionLayer(state.invalidation().orElseThrow(), state.expansions());
  }

  private CommandRun run(String command, List<AuthorityLayer> layers, List<Long> sequences, List<Attestation.SecretFinding> secrets) {
    ExecutionRequest.Builder request = ExecutionRequest.command(command).repository(repository);
    layers.forEach(request::layer);
    ExecutionResult result = kernel.execute(request.build());
    long sequence = plans.recordExecution(ExecutionRecord.of(result.attestation()));
    sequences.add(sequence);
    secrets.addAll(result.attestation().secrets().findings());
    boolean passed = result.succeeded() && result.attestation().violations().isEmpty();
    Optional<FailureRecord> failure = passed ? Optional.empty() : Optional.of(Failures.of(result));
    Optional<Integer> exitCode = result.exitCode().isPresent() ? Optional.of(result.exitCode().getAsInt()) : Optional.empty();
    return new CommandRun("acceptance", command, result.argv(), result.status().name(), exitCode, passed, sequence, failure);
  }

  private Map<String, Assumption> assumptions() {
    Map<String, Assumption> all = new LinkedHashMap<>();
    for (Stored<AssumptionRecord> stored : store.assumptions()) {
      AssumptionRecord r = stored.record();
      all.put(r.assumptionId(), AssumptionJson.fromMap(r.workPlanId(), r.phaseId(), r.assumption()));
    }
    return all;
  }

  /** Refuses a graph in which {@code start} reaches itself through dependents. */
  private static void refuseCycle(Map<String, Assumption> graph, String start) {
    List<String> stack = new ArrayList<>(graph.get(start).dependents());
    Set<String> seen = new HashSet<>();
    while (!stack.isEmpty()) {
      String id = stack.remove(stack.size() - 1);
      if (id.equals(start)) {
        throw new WorkflowException(AssumptionCodes.ASSUMPTION_LINK_CYCLE, "the links of \"" + start + "\" lead back to it; a cycle would"
            + " leave the radius without an end");
      }
      if (seen.add(id) && graph.containsKey(id)) {
        stack.addAll(graph.get(id).dependents());
      }
    }
  }

  private AssumptionState requireState(String assumptionId) {
    for (Stored<AssumptionRecord> stored : store.assumptions()) {
      if (stored.record().assumptionId().equals(assumptionId)) {
        return state(stored);
      }
    }
    throw new WorkflowException(AssumptionCodes.ASSUMPTION_UNKNOWN, "no assumption \"" + assumptionId + "\" is recorded");
  }

  private AssumptionState state(Stored<AssumptionRecord> stored) {
    AssumptionRecord r = stored.record();
    Assumption assumption = AssumptionJson.fromMap(r.workPlanId(), r.phaseId(), r.assumption());
    Optional<Invalidation> invalidation = Optional.empty();
    List<ScopeExpansion> expansions = new ArrayList<>();
    List<PhaseVerification> verifications = new ArrayList<>();
    Optional<CorrectionOutcome> outcome = Optional.empty();
    for (Stored<CorrectionRecord> step : store.corrections(r.assumptionId())) {
      CorrectionRecord c = step.record();
      if (c instanceof InvalidationRecord i) {
        invalidation = Optional.of(new Invalidation(i.assumptionId(), i.rootCause(), (String) i.details().get("phaseId"), radius(i),
            step.sequence()));
      } else if (c instanceof ScopeExpansionRecord e) {
        expansions.add(new ScopeExpansion(e.assumptionId(), e.paths(), e.justification(), step.sequence()));
      } else if (c instanceof CorrectionVerificationRecord v) {
        @SuppressWarnings("unchecked")
        Map<String, Object> body = (Map<String, Object>) v.details().get("verification");
        verifications.add(VerificationJson.fromMap((String) v.details().get("workPlanId"), ((Number) v.details().get("planRevision")).intValue(),
            (String) v.details().get("phaseId"), step.sequence(), body));
      } else if (c instanceof OutcomeRecord o) {
        outcome = Optional.of(new CorrectionOutcome(o.assumptionId(), o.resolved(), o.verificationSequence(), o.reason(), step.sequence()));
      }
    }
    return new AssumptionState(assumption, stored.sequence(), invalidation, expansions, verifications, outcome);
  }

  private CorrectionRadius radius(InvalidationRecord i) {
    Map<String, Object> d = i.details();
    Map<String, String> excluded = new TreeMap<>();
    ((Map<?, ?>) d.get("excluded")).forEach((k, v) -> excluded.put((String) k, (String) v));
    return new CorrectionRadius(i.radius(), excluded, strings(d.get("reachedAssumptions")), strings(d.get("reachedPhases")),
        new RadiusBounds(((Number) d.get("maxDepth")).intValue(), ((Number) d.get("maxFiles")).intValue()),
        (Boolean) d.get("depthBoundReached"), (Boolean) d.get("fileBoundReached"));
  }

  private static List<String> strings(Object value) {
    return ((List<?>) value).stream().map(String.class::cast).toList();
  }

  private Map<String, String> invalidationManifest(String assumptionId) {
    for (Stored<CorrectionRecord> step : store.corrections(assumptionId)) {
      if (step.record() instanceof InvalidationRecord i) {
        Map<String, String> manifest = new TreeMap<>();
        ((Map<?, ?>) i.details().get("manifest")).forEach((k, v) -> manifest.put((String) k, (String) v));
        return manifest;
      }
    }
    throw new WorkflowException(AssumptionCodes.ASSUMPTION_NOT_INVALIDATED, "the assumption \"" + assumptionId + "\" was not invalidated");
  }

  private static Invalidation requireInvalidated(AssumptionState state) {
    return state.invalidation().orElseThrow(() -> new WorkflowException(AssumptionCodes.ASSUMPTION_NOT_INVALIDATED, "the assumption \""
        + state.assumption().id() + "\" was not invalidated; invalidate it with its root cause first"));
  }

  private static void requireNotClosed(AssumptionState state) {
    if (state.outcome().isPresent()) {
      throw new WorkflowException(AssumptionCodes.CORRECTION_CLOSED, "the correction of \"" + state.assumption().id() + "\" is "
          + state.status().toLowerCase(java.util.Locale.ROOT) + " already (record " + state.outcome().get().sequence() + ")");
    }
  }

  private AssumptionState requireInvalidatedAndOpen(String assumptionId) {
    AssumptionState state = requireState(assumptionId);
    requireNotClosed(state);
    requireInvalidated(state);
    return state;
  }

  /** The phase the correction runs in: the one active at invalidation, which must still be active. */
  private Phase correctionPhase(AssumptionState state) {
    String phaseId = requireInvalidated(state).phaseId();
    Phase active = activePhase(requireCurrent().plan());
    if (!active.id().equals(phaseId)) {
      throw new WorkflowException(WorkflowCodes.PHASE_NOT_ACTIVE, "the correction of \"" + state.assumption().id() + "\" belongs to phase \""
          + phaseId + "\", which is no longer active (\"" + active.id() + "\" is); abandon it or record a new assumption");
    }
    return active;
  }

  private Phase activePhase(WorkPlan plan) {
    PlanHistory history = new PlanHistory(plan.id(), plans.phaseRecords(plan.id()));
    return history.active(plan).orElseThrow(() -> new WorkflowException(WorkflowCodes.PHASE_NOT_ACTIVE,
        "every phase of the work plan \"" + plan.id() + "\" is complete; there is no phase to work an assumption in"));
  }

  private ProjectContract requireContract() {
    return workPlans.contract().orElseThrow(() -> new WorkflowException(WorkflowCodes.CONTRACT_MISSING,
        "the repository has no project contract; set one first"));
  }

  /** The revision in force; without one, the work plans' own refusal (its code for a missing plan). */
  private WorkPlanRevision requireCurrent() {
    workPlans.status();
    return workPlans.current().orElseThrow();
  }

  private static String digest(Map<String, String> manifest) {
    return "sha256:" + CanonicalJson.sha256(manifest);
  }
}
