package dev.capability.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.capability.runtime.Approval;
import dev.capability.capability.runtime.ApprovalHandler;
import dev.capability.capability.runtime.CapabilityDescriptor;
import dev.capability.capability.runtime.CapabilityExecutors;
import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectPolicies;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.capability.runtime.ExecutionReceipts;
import dev.capability.capability.runtime.Hook;
import dev.capability.capability.runtime.PlanVerifier;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.core.CheckResult;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.CommandStrings;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.mcp.EvidenceAccess;
import dev.capability.mcp.McpCodes;
import dev.capability.mcp.McpServerConfig;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The tools, each with its input schema, its annotations and the code it fails with. A failure is
 * a tool result with {@code isError} and a structured {@code {code, message}}, never a protocol
 * error, so an agent can read why.
 */
public final class Tools {
  /** The most of each output stream run_command returns (the whole stream's SHA-256 is in the attestation). */
  static final int MAX_RETURNED_OUTPUT = 64 << 10;

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String REPOSITORY = "\"repository\": {\"type\": \"string\", \"description\": "
      + "\"The repository: an absolute path inside the operator's allowed roots.\"}";

  private static final String COMMAND_FIELDS = REPOSITORY + ","
      + "\"argv\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"minItems\": 1, \"description\": \"The command as argv.\"},"
      + "\"command\": {\"type\": \"string\", \"description\": \"The command as one string, split without a shell (give argv or command).\"}";

  private final McpServerConfig config;
  private final List<ExecutionBackend> backends;
  private final Workspace workspace;
  private final @Nullable Duration commandTimeoutCap;
  private final McpJsonMapper mapper;
  private final @Nullable List<List<String>> listedCommands;

  /**
   * @param backends the backends every call's kernel shares; the server owns and closes them
   * @param commandTimeoutCap the longest a command or capability run may take in one tool call
   *     (the HTTP per-request bound), or null for the policy's own bound
   * @param listedCommands the only commands a plan saved or amended through these tools may name
   *     (the HTTP server's acceptance commands), or null for any the layers allow
   */
  public Tools(
      McpServerConfig config, List<ExecutionBackend> backends, @Nullable Duration commandTimeoutCap, McpJsonMapper mapper,
      @Nullable List<List<String>> listedCommands) {
    this.config = config;
    this.backends = backends;
    this.workspace = new Workspace(config.allowedRoots());
    this.commandTimeoutCap = commandTimeoutCap;
    this.mapper = mapper;
    this.listedCommands = listedCommands;
  }

  /** Every tool, in the order tools/list shows them. */
  public List<SyncToolSpecification> all() {
    List<SyncToolSpecification> all = new ArrayList<>(commandAndWorkspaceTools());
    all.addAll(new PlanTools(config.evidence(), workspace, this::kernel, listedCommands).all(this::tool));
    all.add(new PatchTool(config.evidence(), workspace, this::kernel).spec(this::tool));
    return List.copyOf(all);
  }

  private List<SyncToolSpecification> commandAndWorkspaceTools() {
    return List.of(
        tool("parse_command", "Parse a command",
            "Split a command string into argv the way the kernel does, without a shell; refuses shell syntax (pipes, redirections, substitutions) with SHELL_SYNTAX and where it is.",
            "\"command\": {\"type\": \"string\"}", List.of("command"), readOnly(), this::parse),
        tool("check_command", "Check a command",
            "Say whether the operator policy, narrowed by the project contract, the active phase and any open correction, allows a command in a repository and, if not, which layer, rule and argument refuse it. Runs nothing; the decision is recorded in the repository's evidence ledger.",
            COMMAND_FIELDS, List.of("repository"), readOnly(), this::check),
        tool("run_command", "Run a command",
            "Run a command in a repository through the kernel, under the operator policy narrowed by the project contract, the active phase and any open correction, in the strongest sandbox available; returns status, exit code, bounded output and the attestation summary, and records the run.",
            COMMAND_FIELDS + ",\"timeoutSeconds\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 86400},"
                + "\"maxOutputBytes\": {\"type\": \"integer\", \"minimum\": 1}",
            List.of("repository"), new ToolAnnotations("Run a command", false, true, false, true, false), this::run),
        tool("read_file", "Read a file",
            "Read a file of a repository (bounded; .git/ and .capability/ are not read; symlinks are followed only inside the repository).",
            REPOSITORY + ",\"path\": {\"type\": \"string\"},\"maxBytes\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": " + Workspace.MAX_READ_BYTES + "}",
            List.of("repository", "path"), readOnly(), this::read),
        tool("list_files", "List files",
            "List the files under a directory of a repository, breadth first, bounded, without following symlinks and without .git/ and .capability/.",
            REPOSITORY + ",\"path\": {\"type\": \"string\"},\"maxEntries\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": " + Workspace.MAX_LIST_ENTRIES + "}",
            List.of("repository"), readOnly(), this::list),
        tool("search_text", "Search text",
            "Find the lines holding a literal string in the UTF-8 files of a repository (bounded results and bytes; no symlinks, no .git/ or .capability/).",
            REPOSITORY + ",\"query\": {\"type\": \"string\", \"minLength\": 1},\"path\": {\"type\": \"string\"},"
                + "\"maxResults\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": " + Workspace.MAX_SEARCH_RESULTS + "}",
            List.of("repository", "query"), readOnly(), this::search),
        tool("inspect_capability", "Inspect a capability",
            "What a capability package declares (name, version, entry, effects, hooks, digests), read without loading its code.",
            "\"package\": {\"type\": \"string\", \"description\": \"The package (directory, jar, zip or tgz): an absolute path inside the allowed roots.\"}",
            List.of("package"), readOnly(), this::inspect),
        tool("plan_capability", "Plan a capability run",
            "The fingerprinted plan a run of the package on this input would be decided on. Only the operator approves plans, by fingerprint, in the server configuration.",
            REPOSITORY + ",\"package\": {\"type\": \"string\"},\"input\": {\"description\": \"The input: any JSON value.\"}",
            List.of("repository", "package", "input"), readOnly(), this::plan),
        tool("run_capability", "Run a capability",
            "Plan and run a capability package on an input under the operator's effect policy, and record the run. A plan that needs an approval runs only when the operator pre-approved its fingerprint; otherwise it is refused with " + McpCodes.APPROVAL_NOT_PREAUTHORIZED + ".",
            REPOSITORY + ",\"package\": {\"type\": \"string\"},\"input\": {\"description\": \"The input: any JSON value.\"},"
                + "\"expectPlan\": {\"type\": \"string\", \"description\": \"Run only the plan with this fingerprint.\"}",
            List.of("repository", "package", "input"), new ToolAnnotations("Run a capability", false, true, false, true, false), this::runCapability),
        tool("ledger_list", "List evidence",
            "The newest records of a repository's evidence ledger.",
            REPOSITORY + ",\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 1000}",
            List.of("repository"), readOnly(), this::ledgerList),
        tool("ledger_show", "Show evidence",
            "One record of a repository's evidence ledger, by sequence number.",
            REPOSITORY + ",\"sequence\": {\"type\": \"integer\", \"minimum\": 1}",
            List.of("repository", "sequence"), readOnly(), this::ledgerShow),
        tool("ledger_verify", "Verify evidence",
            "Verify the hash chain and the signed checkpoints of a repository's evidence ledger; status INTACT when nothing broke.",
            REPOSITORY, List.of("repository"), readOnly(), this::ledgerVerify));
  }

  private static ToolAnnotations readOnly() {
    return new ToolAnnotations(null, true, false, true, false, false);
  }

  private SyncToolSpecification tool(String name, String title, String description, String properties, List<String> required,
      ToolAnnotations annotations, Function<Arguments, Map<String, @Nullable Object>> body) {
    String schema = "{\"type\": \"object\", \"properties\": {" + properties + "}, \"required\": "
        + required.stream().map(r -> "\"" + r + "\"").toList() + ", \"additionalProperties\": false}";
    Tool tool = Tool.builder(name, mapper, schema).title(title).description(description)
        .annotations(new ToolAnnotations(title, annotations.readOnlyHint(), annotations.destructiveHint(),
            annotations.idempotentHint(), annotations.openWorldHint(), null))
        .build();
    return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> call(body, new Arguments(request.arguments()))).build();
  }

  private static CallToolResult call(Function<Arguments, Map<String, @Nullable Object>> body, Arguments arguments) {
    try {
      return result(body.apply(arguments), false);
    } catch (ShellSyntaxException e) {
      Map<String, @Nullable Object> error = error(e.code(), e.getMessage());
      error.put("construct", e.construct());
      error.put("offset", e.offset());
      return result(error, true);
    } catch (CapabilityException e) {
      return result(error(e.code(), e.getMessage()), true);
    } catch (RuntimeException e) {
      return result(error(McpCodes.TOOL_FAILED, e.getClass().getSimpleName() + ": " + e.getMessage()), true);
    }
  }

  /** A tool error; every URL in its message is shown without credentials, whichever layer wrote it. */
  private static Map<String, @Nullable Object> error(String code, @Nullable String message) {
    Map<String, @Nullable Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message == null ? null : UrlCredentials.redactedIn(message));
    return error;
  }

  private static CallToolResult result(Map<String, @Nullable Object> structured, boolean isError) {
    try {
      return CallToolResult.builder().structuredContent(structured).addTextContent(JSON.writeValueAsString(structured)).isError(isError).build();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tool result is not JSON", e);
    }
  }

  // Commands.

  private Map<String, @Nullable Object> parse(Arguments arguments) {
    return map("argv", CommandStrings.split(arguments.string("command")));
  }

  private ExecutionRequest.Builder request(Arguments arguments, Path repository) {
    var argv = arguments.stringList("argv");
    var command = arguments.optionalString("command");
    if (argv.isPresent() == command.isPresent()) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "give the command as either argv or command, not both or neither");
    }
    ExecutionRequest.Builder request = argv.isPresent() ? ExecutionRequest.argv(argv.get()) : ExecutionRequest.command(command.get());
    return request.repository(repository);
  }

  /**
   * A kernel for one call: the policy file is checked and read again each time (an operator's edit
   * applies to the next call; unchanged text reuses the policy validated before), over the server's
   * shared backends. It is not closed, since closing a kernel closes
   * its backends; it holds nothing else.
   */
  private CommandKernel kernel(Path repository, EvidenceAccess.Store store) {
    CommandKernel.Builder kernel = CommandKernel.builder(ExecutionPolicies.load(config.policyFile(), repository))
        .discoverBackends(false)
        .hostEnvironment(config.hostEnvironment())
        .evidenceStore(store)
        .decisionStore(store);
    backends.forEach(kernel::backend);
    return kernel.build();
  }

  /** As {@link #kernel(Path, EvidenceAccess.Store)}, recording nothing itself: the work plans record their own launches. */
  private CommandKernel kernel(Path repository) {
    CommandKernel.Builder kernel = CommandKernel.builder(ExecutionPolicies.load(config.policyFile(), repository))
        .discoverBackends(false)
        .hostEnvironment(config.hostEnvironment());
    backends.forEach(kernel::backend);
    return kernel.build();
  }

  /** The repository's store: the one holding its work plan when the host keeps work plans. */
  private EvidenceAccess.Store store(Path repository) {
    return config.evidence().keepsWorkPlans() ? config.evidence().openPlans(repository) : config.evidence().open(repository);
  }

  /** The contract, active phase and open correction layers a command of the agent runs under (see {@link PlanTools#activeLayers}). */
  private static List<AuthorityLayer> activeLayers(CommandKernel kernel, EvidenceAccess.Store store, Path repository) {
    return store instanceof EvidenceAccess.PlanStore plans ? PlanTools.activeLayers(kernel, plans, repository) : List.of();
  }

  private Map<String, @Nullable Object> check(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    ExecutionRequest.Builder request = request(arguments, repository);
    try (EvidenceAccess.Store store = store(repository)) {
      CommandKernel kernel = kernel(repository, store);
      activeLayers(kernel, store, repository).forEach(request::layer);
      CheckResult result = kernel.check(request.build());
      Map<String, @Nullable Object> out = decision(result.decision());
      out.put("argv", result.argv());
      out.put("executable", result.executablePath().map(path -> map("path", path, "sha256", result.executableSha256().orElse(null))).orElse(null));
      out.put("backend", result.backendId().orElse(null));
      return out;
    }
  }

  private static Map<String, @Nullable Object> decision(Decision d) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("decision", d.allowed() ? "ALLOW" : "DENY");
    out.put("code", d.code());
    out.put("layer", d.layer());
    out.put("rule", d.rule());
    out.put("argIndex", d.argIndex().isPresent() ? d.argIndex().getAsInt() : null);
    out.put("message", d.message());
    return out;
  }

  private Map<String, @Nullable Object> run(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    ExecutionRequest.Builder request = request(arguments, repository);
    long timeoutSeconds = arguments.integer("timeoutSeconds", 0, 0, 86_400);
    Duration timeout = timeoutSeconds == 0 ? commandTimeoutCap : Duration.ofSeconds(timeoutSeconds);
    if (timeout != null && commandTimeoutCap != null && timeout.compareTo(commandTimeoutCap) > 0) {
      timeout = commandTimeoutCap;
    }
    if (timeout != null) {
      request.timeout(timeout);
    }
    long maxOutput = arguments.integer("maxOutputBytes", 0, 0, Long.MAX_VALUE);
    if (maxOutput > 0) {
      request.maxOutputBytes(maxOutput);
    }
    ExecutionResult result;
    try (EvidenceAccess.Store store = store(repository)) {
      CommandKernel kernel = kernel(repository, store);
      activeLayers(kernel, store, repository).forEach(request::layer);
      result = kernel.execute(request.build());
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
    boolean cut = bytes.length > MAX_RETURNED_OUTPUT;
    String text = new String(cut ? Arrays.copyOf(bytes, MAX_RETURNED_OUTPUT) : bytes, StandardCharsets.UTF_8);
    return map("text", text, "bytes", bytes.length, "truncated", output.truncated() || cut, "sha256", output.sha256());
  }

  /** The attestation's facts an agent acts on; the whole attestation is in the ledger. */
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

  // Workspace.

  private Map<String, @Nullable Object> read(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    return new LinkedHashMap<>(workspace.read(repository, arguments.string("path"),
        (int) arguments.integer("maxBytes", 256 << 10, 1, Workspace.MAX_READ_BYTES)));
  }

  private Map<String, @Nullable Object> list(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    return new LinkedHashMap<>(workspace.list(repository, arguments.optionalString("path").orElse("."),
        (int) arguments.integer("maxEntries", 1_000, 1, Workspace.MAX_LIST_ENTRIES)));
  }

  private Map<String, @Nullable Object> search(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    return new LinkedHashMap<>(workspace.search(repository, arguments.optionalString("path").orElse("."), arguments.string("query"),
        (int) arguments.integer("maxResults", 200, 1, Workspace.MAX_SEARCH_RESULTS)));
  }

  // Capabilities.

  private Map<String, @Nullable Object> inspect(Arguments arguments) {
    CapabilityDescriptor descriptor = CapabilityPackages.open(workspace.inside(arguments.string("package"), "package")).descriptor();
    return map("name", descriptor.name(), "version", descriptor.version(),
        "entry", descriptor.entry().module() + " " + descriptor.entry().className(),
        "modules", descriptor.moduleDigests(), "package", descriptor.packageDigest(),
        "effects", descriptor.effects().stream().map(Effect::toString).toList(),
        "hooks", descriptor.hooks().stream().map(Hook::id).sorted().toList());
  }

  private String input(Arguments arguments) {
    try {
      return JSON.writeValueAsString(arguments.raw("input"));
    } catch (JsonProcessingException e) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument 'input' is not JSON: " + e.getMessage());
    }
  }

  /**
   * The effect policy of MCP runs: the operator's file when there is one; otherwise approvals,
   * which the operator can only have given in advance, by fingerprint.
   */
  private EffectPolicy effectPolicy() {
    if (config.effectPolicyFile() != null) {
      return EffectPolicies.load(config.effectPolicyFile());
    }
    return EffectPolicies.permissive(preApproved(new AtomicBoolean()));
  }

  private ApprovalHandler preApproved(AtomicBoolean refused) {
    return request -> {
      if (config.preApprovedPlans().contains(request.planFingerprint())) {
        return Approval.grant(request);
      }
      refused.set(true);
      return Approval.refuse(request, "the operator did not pre-approve plan " + request.planFingerprint() + " for MCP clients");
    };
  }

  private CapabilityRuntime.Builder runtime(Path repository, EffectPolicy policy) {
    return CapabilityRuntime.builder().policy(policy).executor(CapabilityExecutors.childJvm(repository));
  }

  private Map<String, @Nullable Object> plan(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    CapabilityPackage pkg = CapabilityPackages.open(workspace.inside(arguments.string("package"), "package"));
    try (CapabilityRuntime runtime = runtime(repository, effectPolicy()).build()) {
      CapabilityPlan plan = runtime.plan(pkg, input(arguments));
      return map("fingerprint", plan.fingerprint(), "plan", plan.toJson(), "preApproved", config.preApprovedPlans().contains(plan.fingerprint()));
    }
  }

  private Map<String, @Nullable Object> runCapability(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    CapabilityPackage pkg = CapabilityPackages.open(workspace.inside(arguments.string("package"), "package"));
    String input = input(arguments);
    EffectPolicy policy = effectPolicy();
    try (EvidenceAccess.Store store = config.evidence().open(repository);
        CapabilityRuntime runtime = runtime(repository, policy).evidenceStore(store).approver("operator (MCP pre-approval)").build()) {
      CapabilityPlan plan = runtime.plan(pkg, input);
      arguments.optionalString("expectPlan").ifPresent(expected -> PlanVerifier.verify(expected, plan));
      if (config.effectPolicyFile() == null) {
        // Asked before the run, with nothing recorded: a plan that needs an approval the operator
        // did not give in advance is refused here, so no agent ever answers an approval.
        AtomicBoolean refused = new AtomicBoolean();
        EffectPolicies.decide(EffectPolicies.permissive(preApproved(refused)), plan);
        if (refused.get()) {
          throw new CapabilityException(McpCodes.APPROVAL_NOT_PREAUTHORIZED, "plan " + plan.fingerprint()
              + " needs an approval; over MCP only the operator approves, by listing the fingerprint in the server configuration");
        }
      }
      ExecutionReceipt receipt = runtime.run(plan, pkg, input);
      return new LinkedHashMap<>(ExecutionReceipts.toJson(receipt));
    }
  }

  // Evidence.

  private Map<String, @Nullable Object> ledgerList(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    return map("records", config.evidence().list(repository, (int) arguments.integer("limit", 50, 1, 1_000)));
  }

  private Map<String, @Nullable Object> ledgerShow(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    long sequence = arguments.integer("sequence", 0, 1, Long.MAX_VALUE);
    return new LinkedHashMap<>(config.evidence().show(repository, sequence)
        .orElseThrow(() -> new CapabilityException(McpCodes.NO_SUCH_RECORD, "the evidence store holds no record " + sequence)));
  }

  private Map<String, @Nullable Object> ledgerVerify(Arguments arguments) {
    return new LinkedHashMap<>(config.evidence().verify(workspace.repository(arguments.string("repository"))));
  }

  private static Map<String, @Nullable Object> map(@Nullable Object... keysAndValues) {
    Map<String, @Nullable Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
