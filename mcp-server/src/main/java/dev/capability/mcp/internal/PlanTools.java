package dev.capability.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.mcp.EvidenceAccess;
import dev.capability.mcp.McpCodes;
import dev.capability.workflow.Assumption;
import dev.capability.workflow.AssumptionState;
import dev.capability.workflow.Assumptions;
import dev.capability.workflow.CorrectionRadius;
import dev.capability.workflow.Invalidation;
import dev.capability.workflow.ProjectContract;
import dev.capability.workflow.ScopeExpansion;
import dev.capability.workflow.WorkPlanRevision;
import dev.capability.workflow.WorkPlans;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The work-plan and assumption tools, over the host's {@link EvidenceAccess.PlanStore}: the agent
 * reads the contract (the operator's and the project's, never set over MCP), saves and amends its
 * plan, verifies and completes phases, records assumptions and corrects them. Every refusal keeps
 * the workflow's code ({@code WORK_PLAN_INVALID}, {@code PHASE_NOT_ACTIVE}, ...).
 */
final class PlanTools {
  /** Makes a tool the way {@link Tools} makes every tool. */
  interface Registrar {
    SyncToolSpecification tool(String name, String title, String description, String properties, List<String> required,
        ToolAnnotations annotations, Function<Arguments, Map<String, @Nullable Object>> body);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String REPOSITORY = "\"repository\": {\"type\": \"string\", \"description\": "
      + "\"The repository: an absolute path inside the operator's allowed roots.\"}";

  private final EvidenceAccess evidence;
  private final Workspace workspace;
  private final Function<Path, CommandKernel> kernels;
  private final @Nullable List<List<String>> listedCommands;

  /**
   * @param kernels a kernel for a repository that records nothing itself: the work plans record
   *     their launches and verifications in the plan store
   * @param listedCommands the only commands saved and amended plans may name, or null for any the
   *     layers allow
   */
  PlanTools(EvidenceAccess evidence, Workspace workspace, Function<Path, CommandKernel> kernels, @Nullable List<List<String>> listedCommands) {
    this.evidence = evidence;
    this.workspace = workspace;
    this.kernels = kernels;
    this.listedCommands = listedCommands;
  }

  List<SyncToolSpecification> all(Registrar r) {
    ToolAnnotations readOnly = new ToolAnnotations(null, true, false, true, false, false);
    ToolAnnotations records = new ToolAnnotations(null, false, false, false, false, false);
    ToolAnnotations runs = new ToolAnnotations(null, false, true, false, true, false);
    return List.of(
        r.tool("get_contract", "Get the project contract",
            "The project contract in force (set by the operator with 'capability contract set', never over MCP): its write scopes, protected paths, executables, evidence commands and critic.",
            REPOSITORY, List.of("repository"), readOnly, this::getContract),
        r.tool("save_plan", "Save a work plan",
            "Validate a work plan against the contract and the operator policy and record it as revision 1; its first phase becomes active. Returns the revision and its warnings.",
            REPOSITORY + ",\"plan\": {\"type\": \"object\", \"description\": \"The work plan (docs/workflow.md).\"}",
            List.of("repository", "plan"), records, this::savePlan),
        r.tool("amend_plan", "Amend the work plan",
            "Apply an RFC 6902 JSON Patch to the plan in force, validate the result whole and record it as the next revision; completed phases cannot change. Returns the revision and its warnings.",
            REPOSITORY + ",\"patch\": {\"type\": \"array\", \"items\": {\"type\": \"object\"}, \"description\": \"An RFC 6902 JSON Patch.\"}",
            List.of("repository", "patch"), records, this::amendPlan),
        r.tool("get_plan", "Get the work plan",
            "The revision of the work plan in force, with its warnings.",
            REPOSITORY, List.of("repository"), readOnly, this::getPlan),
        r.tool("verify_phase", "Verify the active phase",
            "Run the active phase's acceptance commands through the kernel under operator ∩ contract ∩ phase (then, when asked, its selective tests and full suite), audit the phase's change and run the critic; records the launches and the verification. A failed verification is a result, not an error.",
            REPOSITORY + ",\"selectiveTests\": {\"type\": \"boolean\"},\"fullSuite\": {\"type\": \"boolean\"}",
            List.of("repository"), runs, this::verifyPhase),
        r.tool("complete_phase", "Complete the active phase",
            "Complete the active phase on its last verification, which must have passed on the working tree as it is; the next phase becomes active.",
            REPOSITORY, List.of("repository"), records, this::completePhase),
        r.tool("phase_status", "Phase status",
            "Where the work plan stands: completed phases, the active one and its last verification.",
            REPOSITORY, List.of("repository"), readOnly, this::phaseStatus),
        r.tool("record_assumption", "Record an assumption",
            "Record an assumption made in the active phase, with its links to files, phases and other assumptions.",
            REPOSITORY + ",\"assumption\": {\"type\": \"object\", \"description\": \"The assumption (docs/assumptions.md).\"}",
            List.of("repository", "assumption"), records, this::recordAssumption),
        r.tool("invalidate_assumption", "Invalidate an assumption",
            "Record that an assumption was wrong and why; returns the correction radius, the files the correction may change. While the correction is open, run_command, check_command and apply_patch are held to it.",
            REPOSITORY + ",\"assumptionId\": {\"type\": \"string\", \"minLength\": 1},\"rootCause\": {\"type\": \"string\", \"minLength\": 1}",
            List.of("repository", "assumptionId", "rootCause"), records, this::invalidate),
        r.tool("expand_correction_scope", "Expand a correction's scope",
            "Widen an open correction's radius by paths or globs inside the active phase's authority, with a justification that is stored with it. It never widens the phase.",
            REPOSITORY + ",\"assumptionId\": {\"type\": \"string\", \"minLength\": 1},"
                + "\"paths\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"minItems\": 1},"
                + "\"justification\": {\"type\": \"string\", \"minLength\": 1}",
            List.of("repository", "assumptionId", "paths", "justification"), records, this::expand));
  }

  /** The work plans and assumptions of one repository for one call, closed with its store. */
  private record Session(EvidenceAccess.PlanStore store, WorkPlans plans, Assumptions assumptions) implements AutoCloseable {
    @Override
    public void close() {
      store.close();
    }
  }

  private Session open(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    EvidenceAccess.PlanStore store = evidence.openPlans(repository);
    try {
      CommandKernel kernel = kernels.apply(repository);
      WorkPlans.Builder plans = WorkPlans.builder(kernel, store, repository);
      if (listedCommands != null) {
        plans.onlyCommands(listedCommands);
      }
      return new Session(store, plans.build(), Assumptions.builder(kernel, store, repository).build());
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * The layers every command and patch of the agent runs under besides the operator policy, as
   * {@code phase verify} and a correction's verification apply them: the contract, the active
   * phase, and the correction of each assumption invalidated in that phase and not yet closed
   * ({@link Assumptions#activeLayers(WorkPlans)}).
   */
  static List<AuthorityLayer> activeLayers(CommandKernel kernel, EvidenceAccess.PlanStore store, Path repository) {
    return Assumptions.builder(kernel, store, repository).build().activeLayers(WorkPlans.builder(kernel, store, repository).build());
  }

  private static String json(Arguments arguments, String name) {
    try {
      return JSON.writeValueAsString(arguments.raw(name));
    } catch (JsonProcessingException e) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument '" + name + "' is not JSON: " + e.getMessage());
    }
  }

  private static boolean flag(Arguments arguments, String name) {
    Object value = arguments.raw(name);
    if (value == null) {
      return false;
    }
    if (!(value instanceof Boolean b)) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument '" + name + "' must be a boolean");
    }
    return b;
  }

  private Map<String, @Nullable Object> getContract(Arguments arguments) {
    try (Session s = open(arguments)) {
      Optional<ProjectContract> contract = s.plans().contract();
      Map<String, @Nullable Object> out = new LinkedHashMap<>();
      out.put("contract", contract.map(WorkPlans::toJson).orElse(null));
      return out;
    }
  }

  private Map<String, @Nullable Object> savePlan(Arguments arguments) {
    try (Session s = open(arguments)) {
      return WorkPlans.toJson(s.plans().save(json(arguments, "plan")), false);
    }
  }

  private Map<String, @Nullable Object> amendPlan(Arguments arguments) {
    try (Session s = open(arguments)) {
      return WorkPlans.toJson(s.plans().amend(json(arguments, "patch")), false);
    }
  }

  private Map<String, @Nullable Object> getPlan(Arguments arguments) {
    try (Session s = open(arguments)) {
      Optional<WorkPlanRevision> current = s.plans().current();
      return current.map(r -> WorkPlans.toJson(r, true)).orElseGet(() -> {
        Map<String, @Nullable Object> none = new LinkedHashMap<>();
        none.put("plan", null);
        return none;
      });
    }
  }

  private Map<String, @Nullable Object> verifyPhase(Arguments arguments) {
    try (Session s = open(arguments)) {
      return WorkPlans.toJson(s.plans().verify(flag(arguments, "selectiveTests"), flag(arguments, "fullSuite")));
    }
  }

  private Map<String, @Nullable Object> completePhase(Arguments arguments) {
    try (Session s = open(arguments)) {
      return WorkPlans.toJson(s.plans().complete());
    }
  }

  private Map<String, @Nullable Object> phaseStatus(Arguments arguments) {
    try (Session s = open(arguments)) {
      return WorkPlans.toJson(s.plans().status());
    }
  }

  private Map<String, @Nullable Object> recordAssumption(Arguments arguments) {
    try (Session s = open(arguments)) {
      return assumption(s.assumptions().record(json(arguments, "assumption")));
    }
  }

  private Map<String, @Nullable Object> invalidate(Arguments arguments) {
    try (Session s = open(arguments)) {
      Invalidation i = s.assumptions().invalidate(arguments.string("assumptionId"), arguments.string("rootCause"));
      CorrectionRadius r = i.radius();
      Map<String, @Nullable Object> out = new LinkedHashMap<>();
      out.put("assumptionId", i.assumptionId());
      out.put("rootCause", i.rootCause());
      out.put("phaseId", i.phaseId());
      out.put("radius", r.files());
      out.put("excluded", r.excluded());
      out.put("reachedAssumptions", r.reachedAssumptions());
      out.put("reachedPhases", r.reachedPhases());
      out.put("maxDepth", r.bounds().maxDepth());
      out.put("maxFiles", r.bounds().maxFiles());
      out.put("depthBoundReached", r.depthBoundReached());
      out.put("fileBoundReached", r.fileBoundReached());
      out.put("sequence", i.sequence());
      return out;
    }
  }

  private Map<String, @Nullable Object> expand(Arguments arguments) {
    List<String> paths = arguments.stringList("paths")
        .orElseThrow(() -> new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument 'paths' is required"));
    try (Session s = open(arguments)) {
      ScopeExpansion e = s.assumptions().expandCorrectionScope(arguments.string("assumptionId"), paths, arguments.string("justification"));
      Map<String, @Nullable Object> out = new LinkedHashMap<>();
      out.put("assumptionId", e.assumptionId());
      out.put("paths", e.paths());
      out.put("justification", e.justification());
      out.put("sequence", e.sequence());
      return out;
    }
  }

  private static Map<String, @Nullable Object> assumption(AssumptionState s) {
    Assumption a = s.assumption();
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("id", a.id());
    m.put("sequence", s.sequence());
    m.put("status", s.status());
    m.put("workPlanId", a.workPlanId());
    m.put("phaseId", a.phaseId());
    m.put("statement", a.statement());
    m.put("confidence", a.confidence());
    m.put("links", Map.of("files", a.files(), "phases", a.phases(), "assumptions", a.dependents()));
    return m;
  }
}
