package dev.capability.integrations.tools.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.ExecutionOutcome;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.capability.runtime.ExecutionReceipts;
import dev.capability.capability.runtime.PlanVerifier;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.integrations.tools.AgentTool;
import dev.capability.integrations.tools.AgentToolCodes;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.core.CheckResult;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.CommandStrings;
import dev.capability.workflow.Assumptions;
import dev.capability.workflow.WorkPlans;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The tools, with the semantics and result shapes of the MCP server's tools of the same names
 * (docs/mcp.md), bound to one repository: a failure is a result with {@code {"error": {"code",
 * "message"}}}, a refusal a result with {@code "status": "DENIED"}, never an exception.
 */
public final class ToolSet {
  private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  private static final String COMMAND_FIELDS =
      "\"argv\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"minItems\": 1, \"maxItems\": " + AgentTools.MAX_ARGV
          + ", \"description\": \"The command as argv, one string per word; no shell runs it.\"},"
          + "\"command\": {\"type\": \"string\", \"description\": \"The command as one string, split without a shell (give argv or command, not both).\"}";

  private final CommandKernel kernel;
  private final Path repository;
  private final @Nullable CapabilityRuntime runtime;
  private final Map<String, CapabilityPackage> capabilities;
  private final Set<String> preApprovedPlans;
  private final @Nullable WorkPlans workPlans;
  private final @Nullable Assumptions assumptions;

  public ToolSet(CommandKernel kernel, Path repository, @Nullable CapabilityRuntime runtime, Map<String, CapabilityPackage> capabilities,
      Set<String> preApprovedPlans, @Nullable WorkPlans workPlans, @Nullable Assumptions assumptions) {
    this.kernel = kernel;
    this.repository = repository;
    this.runtime = runtime;
    this.capabilities = capabilities;
    this.preApprovedPlans = preApprovedPlans;
    this.workPlans = workPlans;
    this.assumptions = assumptions;
  }

  /** The tools this configuration offers, in the order {@link AgentTools#all()} gives them. */
  public List<AgentTool> tools() {
    List<AgentTool> tools = new ArrayList<>();
    tools.add(tool(AgentTools.RUN_COMMAND,
        "Run a command in the repository through the Capability Kernel, under the operator's policy" + narrowing()
            + ", in the strongest sandbox available. Returns status, exit code, bounded output and the attestation summary. "
            + "A command the policy refuses is not run: the result has status DENIED with the layer, rule, code and reason.",
        COMMAND_FIELDS, List.of(), this::run));
    tools.add(tool(AgentTools.CHECK_COMMAND,
        "Say whether the operator's policy" + narrowing() + " allows a command in the repository and, if not, which layer, rule "
            + "and argument refuse it, with the reason. Runs nothing.",
        COMMAND_FIELDS, List.of(), this::check));
    if (runtime != null) {
      tools.add(tool(AgentTools.RUN_CAPABILITY,
          "Plan and run a capability the host offers on a JSON input, under the host's effect policy, and return the receipt. "
              + "A plan that needs an approval runs only when the host approved its fingerprint in advance; otherwise it is refused with "
              + AgentToolCodes.APPROVAL_NOT_PREAUTHORIZED + " and nothing runs.",
          "\"capability\": {\"type\": \"string\", \"enum\": " + quoted(capabilities.keySet()) + ", \"description\": \"The capability's name.\"},"
              + "\"input\": {\"description\": \"The input: any JSON value the capability's schema accepts.\"},"
              + "\"expectPlan\": {\"type\": \"string\", \"description\": \"Run only the plan with this fingerprint.\"}",
          List.of("capability", "input"), this::runCapability));
    }
    if (workPlans != null) {
      tools.add(tool(AgentTools.SAVE_PLAN,
          "Validate a work plan against the project contract and the operator policy and record it as revision 1; its first phase "
              + "becomes active and every command is then held to it. Returns the revision and its warnings.",
          "\"plan\": {\"type\": \"object\", \"description\": \"The work plan (docs/workflow.md).\"}",
          List.of("plan"), this::savePlan));
      tools.add(tool(AgentTools.VERIFY_PHASE,
          "Run the active phase's acceptance commands through the kernel under operator, contract and phase (then, when asked, its "
              + "selective tests and full suite), audit the phase's change and run the critic. A failed verification is a result, not an error.",
          "\"selectiveTests\": {\"type\": \"boolean\"},\"fullSuite\": {\"type\": \"boolean\"}",
          List.of(), this::verifyPhase));
    }
    return List.copyOf(tools);
  }

  private String narrowing() {
    return workPlans == null ? "" : " (narrowed by the project contract, the active phase" + (assumptions == null ? "" : " and any open correction") + ")";
  }

  private static String quoted(Collection<String> names) {
    return names.stream().map(name -> "\"" + name + "\"").toList().toString();
  }

  private static AgentTool tool(String name, String description, String properties, List<String> required,
      Function<ToolArguments, Map<String, @Nullable Object>> body) {
    String schema = "{\"type\": \"object\", \"properties\": {" + properties + "}, \"required\": " + quoted(required)
        + ", \"additionalProperties\": false}";
    Set<String> allowed = propertyNames(schema);
    return new Tool(name, description, schema, json -> call(body, json, allowed));
  }

  private static Set<String> propertyNames(String schema) {
    try {
      List<String> names = new ArrayList<>();
      JSON.readTree(schema).get("properties").fieldNames().forEachRemaining(names::add);
      return Set.copyOf(names);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tool's schema is not JSON: " + schema, e);
    }
  }

  /** One tool: the executor never throws. */
  private record Tool(String name, String description, String inputSchema, Function<@Nullable String, String> executor) implements AgentTool {
    @Override
    public String execute(@Nullable String jsonArguments) {
      return executor.apply(jsonArguments);
    }

    @Override
    public String toString() {
      return "AgentTool[" + name + "]";
    }
  }

  private static String call(Function<ToolArguments, Map<String, @Nullable Object>> body, @Nullable String json, Set<String> allowed) {
    try {
      return write(body.apply(ToolArguments.parse(json, allowed)));
    } catch (ShellSyntaxException e) {
      Map<String, @Nullable Object> error = error(e.code(), e.getMessage());
      error.put("construct", e.construct());
      error.put("offset", e.offset());
      return write(Map.of("error", error));
    } catch (CapabilityException e) {
      return write(Map.of("error", error(e.code(), e.getMessage())));
    } catch (RuntimeException e) {
      return write(Map.of("error", error(AgentToolCodes.TOOL_FAILED, e.getClass().getSimpleName() + ": " + e.getMessage())));
    }
  }

  /** A tool error; every URL in its message is shown without credentials, whichever layer wrote it. */
  private static Map<String, @Nullable Object> error(String code, @Nullable String message) {
    Map<String, @Nullable Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message == null ? null : UrlCredentials.redactedIn(message));
    return error;
  }

  private static String write(Map<String, ?> result) {
    try {
      return JSON.writeValueAsString(result);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tool result is not JSON", e);
    }
  }

  // Commands.

  private ExecutionRequest.Builder request(ToolArguments arguments) {
    Optional<List<String>> argv = arguments.stringList("argv");
    Optional<String> command = arguments.optionalString("command");
    if (argv.isPresent() == command.isPresent()) {
      throw ToolArguments.invalid("give the command as either argv or command, not both or neither");
    }
    // A command string is split here, so that shell syntax is the model's error, refused before
    // the kernel sees it and recorded nowhere, as an argv that is not a string list is.
    List<String> words = argv.isPresent() ? argv.get() : CommandStrings.split(command.get());
    if (words.isEmpty()) {
      throw ToolArguments.invalid("argument 'command' is empty");
    }
    if (words.size() > AgentTools.MAX_ARGV) {
      throw new CapabilityException(AgentToolCodes.ARGUMENTS_TOO_LARGE, "the command has " + words.size() + " words; the limit is " + AgentTools.MAX_ARGV);
    }
    ExecutionRequest.Builder request = ExecutionRequest.argv(words).repository(repository);
    activeLayers().forEach(request::layer);
    return request;
  }

  /**
   * The layers a command of the agent runs under besides the operator policy, as {@code phase
   * verify} applies them: the contract and the active phase, and with assumptions each open
   * correction of that phase. None without work plans.
   */
  private List<AuthorityLayer> activeLayers() {
    if (workPlans == null) {
      return List.of();
    }
    return assumptions == null ? workPlans.activeLayers() : assumptions.activeLayers(workPlans);
  }

  private Map<String, @Nullable Object> check(ToolArguments arguments) {
    CheckResult result = kernel.check(request(arguments).build());
    Map<String, @Nullable Object> out = decision(result.decision());
    out.put("argv", result.argv());
    out.put("executable", result.executablePath().map(path -> map("path", path.toString(), "sha256", result.executableSha256().orElse(null))).orElse(null));
    out.put("backend", result.backendId().orElse(null));
    return out;
  }

  /** A decision as the tools show it: {@code status} ALLOWED or DENIED, then code, layer, rule, argIndex and reason. */
  private static Map<String, @Nullable Object> decision(Decision d) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("status", d.allowed() ? "ALLOWED" : "DENIED");
    out.put("code", d.code());
    out.put("layer", d.layer());
    out.put("rule", d.rule());
    out.put("argIndex", d.argIndex().isPresent() ? d.argIndex().getAsInt() : null);
    out.put("reason", d.message());
    return out;
  }

  private Map<String, @Nullable Object> run(ToolArguments arguments) {
    ExecutionResult result = kernel.execute(request(arguments).build());
    if (result.status() == ExecutionStatus.DENIED) {
      Map<String, @Nullable Object> out = decision(result.decision());
      out.put("argv", result.argv());
      return out;
    }
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("status", result.status().name());
    out.put("exitCode", result.exitCode().isPresent() ? result.exitCode().getAsInt() : null);
    out.put("decision", decision(result.decision()));
    out.put("stdout", output(result.stdout()));
    out.put("stderr", output(result.stderr()));
    out.put("failure", result.failureMessage());
    out.put("attestation", summary(AttestationJson.toMap(result.attestation())));
    return out;
  }

  private static Map<String, @Nullable Object> output(CapturedOutput output) {
    byte[] bytes = output.bytes();
    boolean cut = bytes.length > AgentTools.MAX_RETURNED_OUTPUT;
    String text = new String(cut ? Arrays.copyOf(bytes, AgentTools.MAX_RETURNED_OUTPUT) : bytes, StandardCharsets.UTF_8);
    return map("text", text, "bytes", bytes.length, "truncated", output.truncated() || cut, "sha256", output.sha256());
  }

  /** The attestation's facts an agent acts on; the whole attestation is in the host's evidence store. */
  private static Map<String, @Nullable Object> summary(Map<String, @Nullable Object> attestation) {
    Map<String, @Nullable Object> summary = new LinkedHashMap<>();
    for (String key : List.of("status", "argv", "decision", "policyHash", "executable", "backend", "network", "projectWrites",
        "filesProduced", "violations")) {
      if (attestation.containsKey(key)) {
        summary.put(key, attestation.get(key));
      }
    }
    return summary;
  }

  // Capabilities.

  private Map<String, @Nullable Object> runCapability(ToolArguments arguments) {
    CapabilityRuntime runtime = this.runtime;
    if (runtime == null) {
      throw new IllegalStateException("run_capability is offered only with a runtime");
    }
    String name = arguments.string("capability");
    CapabilityPackage pkg = capabilities.get(name);
    if (pkg == null) {
      throw new CapabilityException(AgentToolCodes.UNKNOWN_CAPABILITY, "no capability '" + name + "' is offered; the host offers "
          + capabilities.keySet().stream().sorted().toList());
    }
    String input = arguments.anyJson("input");
    CapabilityPlan plan = runtime.plan(pkg, input);
    Optional<String> expected = arguments.optionalString("expectPlan");
    if (expected.isPresent()) {
      PlanVerifier.verify(expected.get(), plan);
    }
    List<Effect> needingApproval = plan.effects().stream().filter(effect -> effect.kind().needsApproval()).toList();
    if (!needingApproval.isEmpty() && !preApprovedPlans.contains(plan.fingerprint())) {
      // Refused before the run, with nothing recorded: no model ever answers an approval.
      throw new CapabilityException(AgentToolCodes.APPROVAL_NOT_PREAUTHORIZED, "plan " + plan.fingerprint() + " of " + plan.capability()
          + " requests " + needingApproval.stream().map(Effect::toString).toList()
          + ", which need an approval; only the host approves, by pre-approving the plan's fingerprint");
    }
    ExecutionReceipt receipt = runtime.run(plan, pkg, input);
    Map<String, @Nullable Object> json = ExecutionReceipts.toJson(receipt);
    if (receipt.outcome() != ExecutionOutcome.REFUSED) {
      return new LinkedHashMap<>(json);
    }
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("status", "DENIED");
    out.put("code", receipt.code());
    out.put("layer", "effect-policy");
    out.put("rule", null);
    out.put("reason", receipt.message());
    out.put("receipt", json);
    return out;
  }

  // Work plans.

  private WorkPlans workPlans() {
    WorkPlans plans = workPlans;
    if (plans == null) {
      throw new IllegalStateException("the work-plan tools are offered only with work plans");
    }
    return plans;
  }

  private Map<String, @Nullable Object> savePlan(ToolArguments arguments) {
    String plan = arguments.object("plan");
    return WorkPlans.toJson(workPlans().save(plan), false);
  }

  private Map<String, @Nullable Object> verifyPhase(ToolArguments arguments) {
    boolean selective = arguments.flag("selectiveTests");
    boolean full = arguments.flag("fullSuite");
    return WorkPlans.toJson(workPlans().verify(selective, full));
  }

  private static Map<String, @Nullable Object> map(@Nullable Object... keysAndValues) {
    Map<String, @Nullable Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
