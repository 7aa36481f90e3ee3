package dev.capability.workflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.kernel.api.store.WorkPlanStore;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.WorkingTrees;
import dev.capability.workflow.CommandRun;
import dev.capability.workflow.CriticConfig;
import dev.capability.workflow.CriticVerdict;
import dev.capability.workflow.FailureRecord;
import dev.capability.workflow.Phase;
import dev.capability.workflow.PhaseCompletion;
import dev.capability.workflow.PhaseStatus;
import dev.capability.workflow.PhaseVerification;
import dev.capability.workflow.PlanWarning;
import dev.capability.workflow.ProjectContract;
import dev.capability.workflow.WorkPlan;
import dev.capability.workflow.WorkPlanRevision;
import dev.capability.workflow.WorkflowCodes;
import dev.capability.workflow.WorkflowException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The work-plan operations behind {@link dev.capability.workflow.WorkPlans}. */
public final class WorkPlanService {
  /** The most changed paths the critic's evidence summary lists. */
  static final int MAX_SUMMARY_PATHS = 1000;
  /** The most counters one token report may carry. */
  static final int MAX_TOKEN_COUNTERS = 32;
  private static final java.util.regex.Pattern COUNTER_NAME = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9._-]{0,63}");
  private static final JsonDocuments PATCH = new JsonDocuments(WorkflowCodes.PLAN_PATCH_INVALID, "patch");

  private final WorkPlanStore store;
  private final CommandKernel kernel;
  private final Path repository;
  private final Clock clock;
  private final PlanValidator validator;
  private final Optional<String> backendId;
  /**
   * The revision {@link #current} read last. A stored record never changes once its sequence is
   * given, so while the store's last revision is that record, reading its plan again strictly
   * would only find the same plan; for a 20-phase plan that reading was about a sixth of what a
   * verification adds to its commands.
   */
  private volatile WorkPlanRevision lastRead;

  public WorkPlanService(
      WorkPlanStore store, CommandKernel kernel, Path repository, Clock clock, Optional<String> backendId, Optional<Set<List<String>>> listedCommands) {
    this.store = store;
    this.kernel = kernel;
    this.repository = repository;
    this.clock = clock;
    this.backendId = backendId;
    this.validator = new PlanValidator(kernel, repository, backendId, listedCommands);
  }

  public ProjectContract setContract(String json) {
    ProjectContract contract = ContractJson.read(json);
    validator.validate(contract);
    store.recordContract(new ContractRecord(ContractJson.hash(contract), ContractJson.toMap(contract)));
    return contract;
  }

  public Optional<ProjectContract> contract() {
    return store.currentContract().map(stored -> ContractJson.read(JsonDocuments.tree(stored.record().contract())));
  }

  public WorkPlanRevision save(String json) {
    ProjectContract contract = requireContract();
    WorkPlan plan = PlanJson.read(json);
    for (Stored<WorkPlanRecord> stored : store.workPlanRevisions()) {
      if (stored.record().workPlanId().equals(plan.id())) {
        throw new WorkflowException(WorkflowCodes.WORK_PLAN_EXISTS, "a work plan \"" + plan.id() + "\" was saved already; amend it with a patch");
      }
    }
    List<PlanWarning> warnings = validator.validate(contract, plan);
    WorkPlanRevision revision = record(plan, 1, Optional.empty(), warnings);
    activate(plan, revision.revision(), new PlanHistory(plan.id(), List.of()));
    return revision;
  }

  public WorkPlanRevision amend(String patchJson) {
    ProjectContract contract = requireContract();
    WorkPlanRevision current = requireCurrent();
    JsonNode patch = PATCH.parse(patchJson);
    if (!patch.isArray()) {
      throw PATCH.invalid("", "an RFC 6902 JSON Patch is an array of operations");
    }
    JsonNode patched;
    try {
      patched = JsonPatch.apply(patch, JsonDocuments.tree(PlanJson.toMap(current.plan())));
    } catch (JsonPatchApplicationException e) {
      throw new WorkflowException(WorkflowCodes.PLAN_PATCH_INVALID, "the patch cannot be applied to revision " + current.revision()
          + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      // The library reports some malformed operations by other exceptions ("replace" at "-" is an
      // IndexOutOfBoundsException); whatever it throws, the patch was not applied.
      throw new WorkflowException(WorkflowCodes.PLAN_PATCH_INVALID, "the patch cannot be applied to revision " + current.revision()
          + ": " + e.getMessage(), e);
    }
    PlanHistory history = history(current.plan().id());
    refuseChangesToCompletedPhases(current.plan(), patched, history);
    WorkPlan plan = PlanJson.read(patched);
    if (!plan.id().equals(current.plan().id())) {
      throw new WorkflowException(WorkflowCodes.WORK_PLAN_INVALID, "the work plan at /id: an amendment cannot rename the plan \""
          + current.plan().id() + "\"; save a new plan instead");
    }
    List<PlanWarning> warnings = validator.validate(contract, plan);
    WorkPlanRevision revision = record(plan, current.revision() + 1, Optional.of(JsonDocuments.MAPPER.convertValue(patch, List.class)), warnings);
    activate(plan, revision.revision(), history);
    return revision;
  }

  public Optional<WorkPlanRevision> current() {
    List<Stored<WorkPlanRecord>> revisions = store.workPlanRevisions();
    if (revisions.isEmpty()) {
      return Optional.empty();
    }
    Stored<WorkPlanRecord> last = revisions.get(revisions.size() - 1);
    WorkPlanRevision read = lastRead;
    if (read != null && read.sequence() == last.sequence() && read.revision() == last.record().revision()
        && read.revisionHash().equals(last.record().revisionHash()) && read.plan().id().equals(last.record().workPlanId())) {
      return Optional.of(read);
    }
    Map<String, Object> document = last.record().document();
    @SuppressWarnings("unchecked")
    WorkPlan plan = PlanJson.read(JsonDocuments.tree((Map<String, Object>) document.get("plan")));
    List<PlanWarning> warnings = ((List<?>) document.get("warnings")).stream().map(w -> PlanJson.warning((Map<?, ?>) w)).toList();
    Instant savedAt = Instant.parse((String) document.get("savedAt"));
    lastRead = new WorkPlanRevision(last.record().revision(), last.record().revisionHash(), plan, warnings, last.sequence(), savedAt);
    return Optional.of(lastRead);
  }

  public PhaseStatus status() {
    WorkPlanRevision current = requireCurrent();
    PlanHistory history = history(current.plan().id());
    List<String> completed = current.plan().phases().stream().map(Phase::id).filter(history::isCompleted).toList();
    Optional<Phase> active = history.active(current.plan());
    Optional<PhaseVerification> last = active.flatMap(p -> history.lastVerification(p.id()))
        .filter(v -> v.planRevision() == current.revision());
    return new PhaseStatus(current.plan().id(), current.revision(), completed, active.map(Phase::id), last);
  }

  public PhaseVerification verify(boolean selectiveTests, boolean fullSuite) {
    ProjectContract contract = requireContract();
    WorkPlanRevision current = requireCurrent();
    WorkPlan plan = current.plan();
    PlanHistory history = history(plan.id());
    Phase phase = history.active(plan).orElseThrow(() -> new WorkflowException(WorkflowCodes.PHASE_NOT_ACTIVE,
        "every phase of the work plan \"" + plan.id() + "\" is complete; there is nothing to verify"));
    Map<String, String> since = history.activation(phase.id()).orElseGet(() -> activate(plan, current.revision(), history).orElseThrow());
    List<AuthorityLayer> layers = List.of(contract.layer(), phase.layer());

    List<String[]> commands = new ArrayList<>();
    phase.acceptance().forEach(c -> commands.add(new String[] {"acceptance", c}));
    if (selectiveTests) {
      phase.selectiveTests().forEach(c -> commands.add(new String[] {"selective", c}));
    }
    boolean withFullSuite = fullSuite && phase.fullSuite().isPresent();
    if (withFullSuite) {
      commands.add(new String[] {"fullSuite", phase.fullSuite().get()});
    }
    List<CommandRun> runs = new ArrayList<>();
    List<Long> sequences = new ArrayList<>();
    List<Attestation.SecretFinding> secrets = new ArrayList<>();
    String failureCode = null;
    String message = "every check passed";
    for (String[] command : commands) {
      CommandRun run = run(command[0], command[1], layers, Optional.empty(), sequences, secrets);
      runs.add(run);
      if (!run.passed()) {
        failureCode = WorkflowCodes.COMMAND_FAILED;
        message = "the " + command[0] + " command \"" + command[1] + "\" did not pass: " + run.status()
            + run.exitCode().map(code -> " with exit status " + code).orElse("");
        break;
      }
    }
    WorkingTrees.ChangeAudit audit = WorkingTrees.audit(kernel.policy(), layers, contract.protectedPaths(), repository, since);
    if (failureCode == null && !audit.violations().isEmpty()) {
      failureCode = WorkflowCodes.PHASE_SCOPE_VIOLATION;
      message = "since phase \"" + phase.id() + "\" started, paths outside its authority changed: "
          + audit.violations().stream().map(v -> v.path() + " (" + v.reason() + ")").toList();
    }
    secrets.addAll(audit.secrets().findings());
    if (failureCode == null && !secrets.isEmpty()) {
      failureCode = WorkflowCodes.SECRET_FOUND;
      message = "the secret scan flagged " + secrets.stream().map(s -> s.source() + ":" + s.line() + " (" + s.rule() + ")").toList();
    }
    Optional<CriticVerdict> verdict = Optional.empty();
    boolean criticRan = failureCode == null && contract.critic().isPresent();
    if (criticRan) {
      CriticConfig critic = contract.critic().get();
      byte[] summary = CanonicalJson.bytes(summary(current, phase, runs, audit));
      CommandRun run = run("critic", critic.command(), layers, Optional.of(summary), sequences, secrets);
      verdict = Optional.of(new CriticVerdict(run.passed(), critic.blocking(), run));
      if (!run.passed() && critic.blocking()) {
        failureCode = WorkflowCodes.CRITIC_REJECTED;
        message = "the blocking critic did not approve: " + run.status() + run.exitCode().map(code -> " with exit status " + code).orElse("");
      }
    }
    // The audit's manifest is the tree now, unless the critic ran after it.
    Map<String, String> after = criticRan ? WorkingTrees.manifest(repository) : audit.manifest();
    PhaseVerification unrecorded = new PhaseVerification(plan.id(), current.revision(), phase.id(), failureCode == null,
        Optional.ofNullable(failureCode), message, runs, withFullSuite, audit.changedPaths(), audit.violations(), secrets, verdict,
        WorkingTrees.treeHash(repository), digest(after), 1);
    long sequence = store.recordPhase(new PhaseRecord(plan.id(), current.revision(), phase.id(),
        unrecorded.passed() ? PhaseEvents.VERIFIED : PhaseEvents.VERIFICATION_FAILED, sequences, VerificationJson.toMap(unrecorded)));
    return VerificationJson.fromMap(plan.id(), current.revision(), phase.id(), sequence, VerificationJson.toMap(unrecorded));
  }

  public PhaseCompletion complete() {
    WorkPlanRevision current = requireCurrent();
    WorkPlan plan = current.plan();
    PlanHistory history = history(plan.id());
    Phase phase = history.active(plan).orElseThrow(() -> new WorkflowException(WorkflowCodes.PHASE_NOT_ACTIVE,
        "every phase of the work plan \"" + plan.id() + "\" is complete already"));
    PhaseVerification verification = history.lastVerification(phase.id())
        .filter(v -> v.planRevision() == current.revision())
        .orElseThrow(() -> new WorkflowException(WorkflowCodes.PHASE_NOT_VERIFIED, "phase \"" + phase.id()
            + "\" has no verification under revision " + current.revision() + " of the plan; verify it first"));
    if (!verification.passed()) {
      String code = verification.failureCode().orElseThrow();
      throw new WorkflowException(code.equals(WorkflowCodes.CRITIC_REJECTED) ? WorkflowCodes.CRITIC_REJECTED : WorkflowCodes.PHASE_NOT_VERIFIED,
          "the last verification of phase \"" + phase.id() + "\" failed (" + code + "): " + verification.message());
    }
    if (phase.fullSuite().isPresent() && !verification.ranFullSuite()) {
      throw new WorkflowException(WorkflowCodes.PHASE_NOT_VERIFIED, "phase \"" + phase.id() + "\" completes only on a verification that ran its"
          + " full suite (" + phase.fullSuite().get() + "); verify with the full suite");
    }
    String now = digest(WorkingTrees.manifest(repository));
    if (!now.equals(verification.contentDigest())) {
      throw new WorkflowException(WorkflowCodes.EVIDENCE_STALE, "the working tree changed after phase \"" + phase.id()
          + "\" was verified (verification " + verification.sequence() + "); verify it again");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("verificationSequence", verification.sequence());
    body.put("inputTreeHash", verification.treeHash());
    body.put("contentDigest", verification.contentDigest());
    body.put("completedAt", clock.instant().toString());
    store.recordPhase(new PhaseRecord(plan.id(), current.revision(), phase.id(), PhaseEvents.COMPLETED, List.of(), body));
    PlanHistory after = history(plan.id());
    activate(plan, current.revision(), after);
    return new PhaseCompletion(plan.id(), current.revision(), phase.id(), verification.treeHash(), verification.sequence(),
        after.active(plan).map(Phase::id));
  }

  public long recordTokens(Map<String, Long> counters) {
    if (counters.isEmpty() || counters.size() > MAX_TOKEN_COUNTERS) {
      throw new WorkflowException(WorkflowCodes.TOKENS_INVALID, "report between 1 and " + MAX_TOKEN_COUNTERS + " counters, not " + counters.size());
    }
    Map<String, Object> recorded = new java.util.TreeMap<>();
    counters.forEach((name, value) -> {
      if (name == null || !COUNTER_NAME.matcher(name).matches()) {
        throw new WorkflowException(WorkflowCodes.TOKENS_INVALID, "a counter is named by a letter, then letters, digits, '.', '_' or '-', at most 64: "
            + (name == null ? "null" : "\"" + name.codePoints().limit(64).collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append) + "\""));
      }
      if (value == null || value < 0) {
        throw new WorkflowException(WorkflowCodes.TOKENS_INVALID, "the counter \"" + name + "\" is a count, not " + value);
      }
      recorded.put(name, value);
    });
    WorkPlanRevision current = requireCurrent();
    PlanHistory history = history(current.plan().id());
    Phase phase = history.active(current.plan()).orElseThrow(() -> new WorkflowException(WorkflowCodes.PHASE_NOT_ACTIVE,
        "every phase of the work plan \"" + current.plan().id() + "\" is complete; there is no phase to count tokens for"));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("counters", recorded);
    body.put("reportedAt", clock.instant().toString());
    return store.recordPhase(new PhaseRecord(current.plan().id(), current.revision(), phase.id(), PhaseEvents.TOKENS, List.of(), body));
  }

  private CommandRun run(String stage, String command, List<AuthorityLayer> layers, Optional<byte[]> stdin, List<Long> sequences,
      List<Attestation.SecretFinding> secrets) {
    ExecutionRequest.Builder request = ExecutionRequest.command(command).repository(repository);
    layers.forEach(request::layer);
    stdin.ifPresent(request::stdin);
    backendId.ifPresent(request::backend);
    ExecutionResult result = kernel.execute(request.build());
    long sequence = store.recordExecution(ExecutionRecord.of(result.attestation()));
    sequences.add(sequence);
    secrets.addAll(result.attestation().secrets().findings());
    boolean passed = result.succeeded() && result.attestation().violations().isEmpty();
    Optional<FailureRecord> failure = passed ? Optional.empty() : Optional.of(Failures.of(result));
    Optional<Integer> exitCode = result.exitCode().isPresent() ? Optional.of(result.exitCode().getAsInt()) : Optional.empty();
    return new CommandRun(stage, command, result.argv(), result.status().name(), exitCode, passed, sequence, failure);
  }

  private static Map<String, Object> summary(WorkPlanRevision revision, Phase phase, List<CommandRun> runs, WorkingTrees.ChangeAudit audit) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("workPlanId", revision.plan().id());
    summary.put("planRevision", revision.revision());
    summary.put("phase", PlanJson.toMap(phase));
    summary.put("runs", runs.stream().map(run -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("stage", run.stage());
      m.put("command", run.command());
      m.put("status", run.status());
      run.exitCode().ifPresent(code -> m.put("exitCode", code));
      m.put("passed", run.passed());
      return (Object) m;
    }).toList());
    List<String> changed = audit.changedPaths();
    summary.put("changedPaths", changed.subList(0, Math.min(changed.size(), MAX_SUMMARY_PATHS)));
    summary.put("changedPathCount", changed.size());
    return summary;
  }

  /**
   * Refuses a patched plan (before it is read, so that the refusal names the completed phase
   * rather than what its absence breaks) that deletes, changes or moves a completed phase:
   * completed phases stay, unchanged, at the start.
   */
  private static void refuseChangesToCompletedPhases(WorkPlan before, JsonNode after, PlanHistory history) {
    JsonNode phases = after.path("phases").isArray() ? after.path("phases") : JsonDocuments.MAPPER.createArrayNode();
    int completed = 0;
    for (int i = 0; i < before.phases().size(); i++) {
      Phase phase = before.phases().get(i);
      if (!history.isCompleted(phase.id())) {
        continue;
      }
      int at = -1;
      for (int j = 0; j < phases.size(); j++) {
        if (phases.get(j).path("id").asText("").equals(phase.id())) {
          at = j;
        }
      }
      if (at < 0) {
        throw new WorkflowException(WorkflowCodes.PLAN_CHANGES_COMPLETED_PHASE, "the patch deletes phase \"" + phase.id()
            + "\" (/phases/" + i + "), which is complete; its evidence stays");
      }
      if (!phases.get(at).equals(JsonDocuments.tree(PlanJson.toMap(phase)))) {
        throw new WorkflowException(WorkflowCodes.PLAN_CHANGES_COMPLETED_PHASE, "the patch changes phase \"" + phase.id()
            + "\" (/phases/" + at + "), which is complete; add a new phase instead");
      }
      completed++;
    }
    for (int j = 0; j < completed; j++) {
      String id = phases.get(j).path("id").asText("");
      if (!history.isCompleted(id)) {
        throw new WorkflowException(WorkflowCodes.PLAN_CHANGES_COMPLETED_PHASE, "the patch puts phase \"" + id
            + "\" (/phases/" + j + ") before a completed phase; completed phases stay first");
      }
    }
  }

  private WorkPlanRevision record(WorkPlan plan, int revision, Optional<List<?>> patch, List<PlanWarning> warnings) {
    Instant savedAt = clock.instant();
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("plan", PlanJson.toMap(plan));
    patch.ifPresent(p -> document.put("patch", p));
    document.put("warnings", warnings.stream().map(PlanJson::toMap).toList());
    document.put("savedAt", savedAt.toString());
    String hash = PlanJson.hash(plan);
    long sequence = store.recordWorkPlan(new WorkPlanRecord(plan.id(), revision, hash, document));
    return new WorkPlanRevision(revision, hash, plan, warnings, sequence, savedAt);
  }

  /** Records that the active phase started, with the working tree's manifest, unless it has been recorded; returns the manifest recorded. */
  private Optional<Map<String, String>> activate(WorkPlan plan, int revision, PlanHistory history) {
    Optional<Phase> active = history.active(plan);
    if (active.isEmpty() || history.activation(active.get().id()).isPresent()) {
      return Optional.empty();
    }
    Map<String, String> manifest = WorkingTrees.manifest(repository);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("manifest", manifest);
    body.put("contentDigest", digest(manifest));
    body.put("activatedAt", clock.instant().toString());
    store.recordPhase(new PhaseRecord(plan.id(), revision, active.get().id(), PhaseEvents.ACTIVATED, List.of(), body));
    return Optional.of(manifest);
  }

  private PlanHistory history(String workPlanId) {
    return new PlanHistory(workPlanId, store.phaseRecords(workPlanId));
  }

  private ProjectContract requireContract() {
    return contract().orElseThrow(() -> new WorkflowException(WorkflowCodes.CONTRACT_MISSING,
        "the repository has no project contract; set one first"));
  }

  private WorkPlanRevision requireCurrent() {
    return current().orElseThrow(() -> new WorkflowException(WorkflowCodes.WORK_PLAN_MISSING, "the repository has no work plan; save one first"));
  }

  private static String digest(Map<String, String> manifest) {
    return "sha256:" + CanonicalJson.sha256(manifest);
  }
}
