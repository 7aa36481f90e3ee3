package dev.capability.workflow;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.store.WorkPlanStore;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.workflow.internal.ContractJson;
import dev.capability.workflow.internal.PlanJson;
import dev.capability.workflow.internal.ResultJson;
import dev.capability.workflow.internal.WorkPlanService;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A repository's work plan: the project contract, the plan's revisions and its phases, worked
 * through one at a time, each completed only on evidence the kernel produced. The agent authors
 * the plan and proposes its acceptance commands; it never grants them authority: every command
 * must be allowed by the operator's policy ∩ the contract ∩ the phase, and the contract can only
 * narrow the policy.
 *
 * <pre>{@code
 * try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.load(policyFile, repo)).build();
 *     SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
 *   WorkPlans plans = WorkPlans.builder(kernel, ledger, repo).build();
 *   plans.setContract(Files.readString(contractFile));
 *   WorkPlanRevision saved = plans.save(Files.readString(planFile));   // saved.warnings()
 *   PhaseVerification verification = plans.verify(false, true);        // acceptance + full suite
 *   if (verification.passed()) {
 *     plans.complete();
 *   }
 * }
 * }</pre>
 *
 * <p>Every refusal is a {@link WorkflowException} with a stable code ({@link WorkflowCodes}) and
 * nothing is recorded for it; a verification that fails is a value. Nothing is updated in place:
 * each contract, revision, verification and completion is a new record in the store. Not
 * thread-safe: one repository's plan is worked by one caller at a time.
 */
public final class WorkPlans {
  private final WorkPlanService service;

  private WorkPlans(Builder b) {
    this.service = new WorkPlanService(b.store, b.kernel, b.repository, b.clock, Optional.ofNullable(b.backendId), Optional.ofNullable(b.listedCommands));
  }

  /**
   * A builder for the work plan of the repository at {@code repository}, run through
   * {@code kernel} and recorded in {@code store}.
   */
  public static Builder builder(CommandKernel kernel, WorkPlanStore store, Path repository) {
    return new Builder(kernel, store, repository);
  }

  /**
   * Reads, checks and records a new project contract.
   *
   * @throws WorkflowException {@code CONTRACT_INVALID} (with the JSON pointer), {@code CONTRACT_WIDENS_OPERATOR}
   *     (with the counterexample), or a {@code PLAN_COMMAND_...} code for the critic's command
   */
  public ProjectContract setContract(String json) {
    return service.setContract(Objects.requireNonNull(json, "json"));
  }

  /** The contract in force, if one was set. */
  public Optional<ProjectContract> contract() {
    return service.contract();
  }

  /**
   * Reads and validates a new work plan and records it as its revision 1; its first phase becomes
   * active. Nothing is recorded when it is refused.
   *
   * @throws WorkflowException {@code CONTRACT_MISSING}, {@code WORK_PLAN_INVALID}, {@code WORK_PLAN_EXISTS},
   *     {@code PLAN_WIDENS_CONTRACT}, {@code PLAN_COMMAND_SHELL_SYNTAX}, {@code PLAN_COMMAND_NO_OP},
   *     {@code PLAN_COMMAND_NOT_ALLOWED}, {@code PLAN_COMMAND_NOT_EXACT}, {@code CRITIC_REQUIRED}
   */
  public WorkPlanRevision save(String json) {
    return service.save(Objects.requireNonNull(json, "json"));
  }

  /**
   * Applies an RFC 6902 JSON Patch to the revision in force, validates the effective plan as a
   * whole, and records it as the next revision. A completed phase may be neither changed nor
   * deleted. Nothing is recorded when it is refused.
   *
   * @throws WorkflowException {@code PLAN_PATCH_INVALID}, {@code PLAN_CHANGES_COMPLETED_PHASE}, or any
   *     code {@link #save} refuses with
   */
  public WorkPlanRevision amend(String patchJson) {
    return service.amend(Objects.requireNonNull(patchJson, "patchJson"));
  }

  /** The revision in force, if a plan was saved. */
  public Optional<WorkPlanRevision> current() {
    return service.current();
  }

  /** The active phase of the revision in force: empty before a plan is saved and once every phase is complete. */
  public Optional<Phase> activePhase() {
    Optional<WorkPlanRevision> current = current();
    if (current.isEmpty()) {
      return Optional.empty();
    }
    return status().active().flatMap(id -> current.get().plan().phases().stream().filter(p -> p.id().equals(id)).findFirst());
  }

  /**
   * The layers an agent's command runs under besides the operator policy, as {@link #verify}
   * applies them: the contract and the active phase. None before a contract is set; the contract
   * alone before a plan is saved or once every phase is complete. {@link
   * Assumptions#activeLayers(WorkPlans)} adds the open corrections.
   */
  public List<AuthorityLayer> activeLayers() {
    Optional<ProjectContract> contract = contract();
    if (contract.isEmpty()) {
      return List.of();
    }
    List<AuthorityLayer> layers = new ArrayList<>();
    layers.add(contract.get().layer());
    activePhase().ifPresent(phase -> layers.add(phase.layer()));
    return List.copyOf(layers);
  }

  /**
   * Where the plan stands: completed phases, the active one, its last verification.
   *
   * @throws WorkflowException {@code WORK_PLAN_MISSING}
   */
  public PhaseStatus status() {
    return service.status();
  }

  /**
   * Verifies the active phase: runs its acceptance commands (then, when asked, its selective
   * tests and its full suite) through the kernel with the contract and the phase as layers,
   * stopping at the first that fails; audits every change since the phase started against the
   * phase's authority and scans it for secrets; then runs the contract's critic. Records the
   * launches and the verification.
   *
   * @param selectiveTests whether to run the phase's selective-test commands
   * @param fullSuite whether to run the phase's full-suite command (completion needs it when the phase has one)
   * @throws WorkflowException {@code CONTRACT_MISSING}, {@code WORK_PLAN_MISSING}, {@code PHASE_NOT_ACTIVE}
   */
  public PhaseVerification verify(boolean selectiveTests, boolean fullSuite) {
    return service.verify(selectiveTests, fullSuite);
  }

  /**
   * Completes the active phase on its last verification, recording the input tree hash; the
   * next phase becomes active.
   *
   * @throws WorkflowException {@code PHASE_NOT_ACTIVE}, {@code PHASE_NOT_VERIFIED}, {@code CRITIC_REJECTED},
   *     {@code EVIDENCE_STALE} when the working tree changed since the verification
   */
  public PhaseCompletion complete() {
    return service.complete();
  }

  /**
   * Records token counters the agent reports for the active phase (for example {@code input},
   * {@code output}): numbers only, never prompts or text, at most 32 counters named by a letter
   * then letters, digits, {@code .}, {@code _} or {@code -}.
   *
   * @return the store's sequence number of the record
   * @throws WorkflowException {@code TOKENS_INVALID}, {@code WORK_PLAN_MISSING}, {@code PHASE_NOT_ACTIVE}
   */
  public long recordTokens(Map<String, Long> counters) {
    return service.recordTokens(Objects.requireNonNull(counters, "counters"));
  }

  /**
   * Reads a contract without checking it against a policy.
   *
   * @throws WorkflowException {@code CONTRACT_INVALID} naming the JSON pointer
   */
  public static ProjectContract readContract(String json) {
    return ContractJson.read(json);
  }

  /**
   * Reads a work plan without checking it against a contract.
   *
   * @throws WorkflowException {@code WORK_PLAN_INVALID} naming the JSON pointer
   */
  public static WorkPlan readPlan(String json) {
    return PlanJson.read(json);
  }

  /** The JSON form of {@code contract}, as stored: plain maps, lists, strings, numbers and booleans. */
  public static Map<String, Object> toJson(ProjectContract contract) {
    return ContractJson.toMap(contract);
  }

  /** The JSON form of {@code plan}, every member written, as stored. */
  public static Map<String, Object> toJson(WorkPlan plan) {
    return PlanJson.toMap(plan);
  }

  /**
   * The JSON view of a saved or amended revision, as the CLI's {@code --json} and the MCP tools
   * show it: id, revision, hash, warnings, ledger sequence and, when asked, the plan. Every view
   * below writes every member, an absent one as null.
   */
  public static Map<String, @Nullable Object> toJson(WorkPlanRevision revision, boolean withPlan) {
    return ResultJson.revision(revision, withPlan);
  }

  /** The JSON view of plan warnings: code, pointer and message each. */
  public static List<Map<String, @Nullable Object>> warningsToJson(List<PlanWarning> warnings) {
    return ResultJson.warnings(warnings);
  }

  /** The JSON view of a phase verification, with its runs, violations, secrets and critic. */
  public static Map<String, @Nullable Object> toJson(PhaseVerification verification) {
    return ResultJson.verification(verification);
  }

  /** The JSON view of a phase completion. */
  public static Map<String, @Nullable Object> toJson(PhaseCompletion completion) {
    return ResultJson.completion(completion);
  }

  /** The JSON view of the plan's phase status, with its last verification. */
  public static Map<String, @Nullable Object> toJson(PhaseStatus status) {
    return ResultJson.status(status);
  }

  /** Builds {@link WorkPlans}. Default: the system clock. */
  public static final class Builder {
    private final CommandKernel kernel;
    private final WorkPlanStore store;
    private final Path repository;
    private Clock clock = Clock.systemUTC();
    private @Nullable String backendId;
    private @Nullable Set<List<String>> listedCommands;

    private Builder(CommandKernel kernel, WorkPlanStore store, Path repository) {
      this.kernel = Objects.requireNonNull(kernel, "kernel");
      this.store = Objects.requireNonNull(store, "store");
      this.repository = Objects.requireNonNull(repository, "repository");
    }

    /** The clock of saved revisions, activations and completions. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Runs and decides every command on the backend {@code id} rather than the kernel's choice (as {@code capability exec --backend}). */
    public Builder backend(String id) {
      this.backendId = Objects.requireNonNull(id, "id");
      return this;
    }

    /**
     * Accepts in saved and amended plans only these commands (acceptance, selective tests, full
     * suite), compared as argument lists after the shell-free split; any other is refused with
     * {@code PLAN_COMMAND_NOT_LISTED} before anything is stored. For a host that takes plans from a
     * remote agent and lets the operator name its commands in full, such as the MCP server over
     * HTTP. Without it, any command the layers allow is accepted.
     */
    public Builder onlyCommands(Collection<List<String>> argvs) {
      Set<List<String>> copy = new LinkedHashSet<>();
      for (List<String> argv : Objects.requireNonNull(argvs, "argvs")) {
        copy.add(List.copyOf(argv));
      }
      this.listedCommands = Collections.unmodifiableSet(copy);
      return this;
    }

    public WorkPlans build() {
      return new WorkPlans(this);
    }
  }
}
