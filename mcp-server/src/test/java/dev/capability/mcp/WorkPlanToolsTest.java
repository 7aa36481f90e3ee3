package dev.capability.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.SqliteLedger;
import dev.capability.testing.Git;
import dev.capability.testing.RequiredBackends;
import dev.capability.workflow.WorkPlans;
import io.modelcontextprotocol.client.McpSyncClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The work-plan tools and apply_patch with the SDK's real client over a real loopback listener, on
 * a real Git repository and its real SQLite ledger, every command under real bwrap: a whole
 * session, and the patches an agent must never get applied, each refused with its code and
 * nothing changed on disk.
 */
class WorkPlanToolsTest {
  private static final String POLICY = """
      {"version": 1, "timeoutMillis": 60000, "maxOutputBytes": 1048576, "network": "none",
       "projectWrites": "scoped", "writeScopes": ["src/**", "docs/**"],
       "environment": {"inherit": ["PATH"]},
       "executables": {
         "cat": {"name": "cat", "exact": [["src/main/Calc.txt"]]},
         "echo": {"name": "echo", "exact": [["done"]]},
         "git": {"name": "git", "arguments": {"subcommands": {"apply": {"flags": {"--check": {}, "--numstat": {}, "-z": {}}}}}}}}
      """;
  private static final String CONTRACT = """
      {"version": 1, "writeScopes": ["src/**", "docs/**"], "executables": ["cat", "git"]}
      """;
  private static final Map<String, Object> PLAN = Map.of("version", 1, "id", "calc", "title", "change Calc", "phases", List.of(
      Map.of("id", "impl", "goal", "Calc says two", "writeScopes", List.of("src/main/**"), "acceptance", List.of("cat src/main/Calc.txt"))));
  private static final String CALC_ONE_TO_TWO = """
      diff --git a/src/main/Calc.txt b/src/main/Calc.txt
      --- a/src/main/Calc.txt
      +++ b/src/main/Calc.txt
      @@ -1 +1 @@
      -one
      +two
      """;

  @TempDir Path base;
  private Path repository;
  private CapabilityMcpServer server;
  private HttpEndpoint endpoint;
  private McpSyncClient client;

  @BeforeEach
  void setUp() throws IOException {
    BackendProvider.Availability bwrap = new BwrapBackendProvider().probe();
    if (!bwrap.available()) {
      RequiredBackends.skipOrFail("bwrap is not available: " + bwrap.reason());
    }
    Files.setAttribute(base, "unix:mode", 0755);
    Path root = Files.createDirectories(base.resolve("root"));
    Files.setAttribute(root, "unix:mode", 0755);
    repository = Files.createDirectories(root.resolve("repo"));
    Git.git(repository, "init", "-q");
    // The sandbox may run as another uid: it must be able to replace the files it patches.
    for (String directory : List.of("", "src", "src/main", "docs")) {
      Files.createDirectories(repository.resolve(directory));
      Files.setAttribute(repository.resolve(directory), "unix:mode", 0777);
    }
    write("src/main/Calc.txt", "one\n");
    write("docs/notes.txt", "note\n");
    repository = repository.toRealPath();
    Path policy = base.resolve("policy.json");
    Files.writeString(policy, POLICY);
    // The contract is the operator's (capability contract set); MCP only reads it.
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.load(policy, repository)).discoverBackends(false).build();
        SqliteLedger ledger = SqliteLedger.forRepository(repository, LedgerOptions.builder().checkpointMaxDelay(null).build())) {
      WorkPlans.builder(kernel, ledger, repository).build().setContract(CONTRACT);
    }
    server = CapabilityMcpServer.create(new McpServerConfig(List.of(root), policy, null, Set.of(),
        Map.of("PATH", System.getenv("PATH")), new SqliteEvidence()));
    // Over HTTP a plan may name only the operator's acceptance commands.
    endpoint = server.startHttp(HttpSettings.loopback(0), List.of("cat src/main/Calc.txt"));
    client = McpTestServer.client(endpoint.uri());
  }

  private void write(String path, String content) throws IOException {
    Path file = repository.resolve(path);
    Files.writeString(file, content);
    Files.setAttribute(file, "unix:mode", 0666);
  }

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.closeGracefully();
    }
    if (endpoint != null) {
      endpoint.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private Map<String, Object> call(String tool, Map<String, Object> arguments) {
    Map<String, Object> withRepository = new TreeMap<>(arguments);
    withRepository.put("repository", repository.toString());
    return McpTestServer.call(client, tool, withRepository);
  }

  @Test
  @SuppressWarnings("unchecked")
  void aWholeSessionSavesRunsPatchesVerifiesCorrectsAndLeavesAnIntactLedger() throws IOException {
    assertThat((Map<String, Object>) call("get_contract", Map.of()).get("contract")).containsEntry("writeScopes", List.of("src/**", "docs/**"));
    Map<String, Object> saved = call("save_plan", Map.of("plan", PLAN));
    assertThat(saved).containsEntry("workPlanId", "calc").containsEntry("revision", 1).containsKey("warnings");
    assertThat(call("phase_status", Map.of())).containsEntry("active", "impl");

    Map<String, Object> ran = call("run_command", Map.of("command", "cat src/main/Calc.txt"));
    assertThat(ran).containsEntry("status", "COMPLETED").containsEntry("exitCode", 0);
    assertThat((Map<String, Object>) ran.get("stdout")).containsEntry("text", "one\n");

    Map<String, Object> applied = call("apply_patch", Map.of("patch", CALC_ONE_TO_TWO));
    assertThat(applied).containsEntry("paths", List.of("src/main/Calc.txt")).containsEntry("phaseId", "impl");
    assertThat((String) applied.get("sha256")).hasSize(64);
    assertThat(Files.readString(repository.resolve("src/main/Calc.txt"))).isEqualTo("two\n");

    Map<String, Object> verified = call("verify_phase", Map.of());
    assertThat(verified).as(verified.toString()).containsEntry("passed", true).containsEntry("changedPaths", List.of("src/main/Calc.txt"));

    Map<String, Object> recorded = call("record_assumption", Map.of("assumption", Map.of("version", 1, "id", "words",
        "statement", "Calc holds a word", "rejectedAlternatives", List.of("a number"), "confidence", 0.7,
        "links", Map.of("files", List.of("src/main/Calc.txt"), "assumptions", List.of()))));
    assertThat(recorded).containsEntry("status", "OPEN");
    Map<String, Object> invalidated = call("invalidate_assumption", Map.of("assumptionId", "words", "rootCause", "Calc holds a number"));
    assertThat(invalidated).containsEntry("radius", List.of("src/main/Calc.txt"));
    Map<String, Object> unjustified = call("expand_correction_scope", Map.of("assumptionId", "words", "paths", List.of("src/main/Other.txt"),
        "justification", "  "));
    assertThat(unjustified).containsEntry("code", "JUSTIFICATION_REQUIRED");
    assertThat(call("expand_correction_scope", Map.of("assumptionId", "words", "paths", List.of("src/main/Other.txt"),
        "justification", "the word moves"))).containsEntry("paths", List.of("src/main/Other.txt"));

    // The open correction narrows the phase: a file the phase may write but the radius and its expansion do not is refused.
    Map<String, Object> outsideRadius = call("apply_patch", Map.of("patch", """
        diff --git a/src/main/Third.txt b/src/main/Third.txt
        new file mode 100644
        --- /dev/null
        +++ b/src/main/Third.txt
        @@ -0,0 +1 @@
        +three
        """));
    assertThat(outsideRadius).containsEntry("code", McpCodes.PATCH_OUTSIDE_SCOPE);
    assertThat((String) outsideRadius.get("message")).contains("correction");
    assertThat(repository.resolve("src/main/Third.txt")).doesNotExist();

    assertThat(call("ledger_verify", Map.of())).containsEntry("status", "INTACT");
  }

  @Test
  void aPlanWhoseAcceptanceCommandHasAShellOperatorIsRefusedAndRecordsNothing() {
    Map<String, Object> refused = call("save_plan", Map.of("plan", Map.of("version", 1, "id", "calc", "title", "t", "phases", List.of(
        Map.of("id", "impl", "goal", "g", "writeScopes", List.of("src/main/**"), "acceptance", List.of("cat src/main/Calc.txt; touch pwned"))))));
    assertThat(refused).containsEntry("code", "PLAN_COMMAND_SHELL_SYNTAX");
    assertThat(call("get_plan", Map.of())).containsEntry("plan", null);
    assertThat(repository.resolve("pwned")).doesNotExist();
  }

  @Test
  void overHttpAPlanNamingACommandTheOperatorDidNotListIsRefusedAndNothingIsStored() {
    // echo done is one of the policy's exact lists, but not an acceptance command of this server.
    for (Map<String, Object> phase : List.of(
        Map.<String, Object>of("id", "impl", "goal", "g", "writeScopes", List.of("src/main/**"), "acceptance", List.of("echo done")),
        Map.<String, Object>of("id", "impl", "goal", "g", "writeScopes", List.of("src/main/**"), "acceptance", List.of("cat src/main/Calc.txt"),
            "fullSuite", "git apply --check"))) {
      Map<String, Object> refused = call("save_plan", Map.of("plan", Map.of("version", 1, "id", "calc", "title", "t", "phases", List.of(phase))));
      assertThat(refused).containsEntry("code", "PLAN_COMMAND_NOT_LISTED");
      assertThat((String) refused.get("message")).contains("[cat, src/main/Calc.txt]");
      assertThat(call("get_plan", Map.of())).containsEntry("plan", null);
    }
    call("save_plan", Map.of("plan", PLAN));
    Map<String, Object> amended = call("amend_plan", Map.of("patch", List.of(
        Map.of("op", "replace", "path", "/phases/0/acceptance/0", "value", "echo done"))));
    assertThat(amended).containsEntry("code", "PLAN_COMMAND_NOT_LISTED");
    assertThat(call("get_plan", Map.of())).containsEntry("revision", 1);
  }

  @Test
  @SuppressWarnings("unchecked")
  void commandsAreCheckedUnderTheContractAsWellAsThePolicy() {
    Map<String, Object> checked = call("check_command", Map.of("command", "echo done"));
    assertThat(checked).containsEntry("decision", "DENY").containsEntry("layer", "project-contract");
    Map<String, Object> ran = call("run_command", Map.of("command", "echo done"));
    assertThat(ran).containsEntry("status", "DENIED");
    assertThat((Map<String, Object>) ran.get("decision")).containsEntry("layer", "project-contract");
  }

  @Test
  void aPatchWithoutAnActivePhaseIsRefused() {
    assertRefusedAndNothingChanged(CALC_ONE_TO_TWO, McpCodes.NO_ACTIVE_PHASE);
  }

  @Test
  void patchesAnAgentMustNeverGetAppliedAreRefusedWithTheirCodeAndChangeNothing() {
    call("save_plan", Map.of("plan", PLAN));
    assertRefusedAndNothingChanged("""
        diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit
        new file mode 100755
        --- /dev/null
        +++ b/.git/hooks/pre-commit
        @@ -0,0 +1 @@
        +touch /tmp/pwned
        """, McpCodes.PROTECTED_PATH);
    assertRefusedAndNothingChanged("""
        diff --git a/.capability/policy.json b/.capability/policy.json
        new file mode 100644
        --- /dev/null
        +++ b/.capability/policy.json
        @@ -0,0 +1 @@
        +{}
        """, McpCodes.PROTECTED_PATH);
    assertRefusedAndNothingChanged("""
        diff --git a/src/main/link b/src/main/link
        new file mode 120000
        --- /dev/null
        +++ b/src/main/link
        @@ -0,0 +1 @@
        +/etc/passwd
        \\ No newline at end of file
        """, McpCodes.PATCH_SYMLINK);
    assertRefusedAndNothingChanged("""
        diff --git a/docs/notes.txt b/docs/notes.txt
        --- a/docs/notes.txt
        +++ b/docs/notes.txt
        @@ -1 +1 @@
        -note
        +pwned
        """, McpCodes.PATCH_OUTSIDE_SCOPE);
    assertRefusedAndNothingChanged("""
        diff --git a/src/main/Calc.txt b/src/main/Calc.txt
        --- a/src/main/Calc.txt
        +++ b/src/main/Calc.txt
        @@ -1 +1 @@
        -three
        +four
        """, McpCodes.PATCH_CHECK_FAILED);
    assertRefusedAndNothingChanged("""
        --- a/../outside.txt
        +++ b/../outside.txt
        @@ -0,0 +1 @@
        +pwned
        """, McpCodes.PATCH_INVALID);
  }

  @Test
  void aPatchThroughASymlinkedDirectoryIsRefused() throws IOException {
    Path outside = Files.createDirectories(base.resolve("outside"));
    Files.createSymbolicLink(repository.resolve("src/main/out"), outside);
    call("save_plan", Map.of("plan", PLAN));
    assertRefusedAndNothingChanged("""
        diff --git a/src/main/out/x.txt b/src/main/out/x.txt
        new file mode 100644
        --- /dev/null
        +++ b/src/main/out/x.txt
        @@ -0,0 +1 @@
        +pwned
        """, McpCodes.PATCH_SYMLINK);
  }

  private void assertRefusedAndNothingChanged(String patch, String code) {
    Map<String, String> before = files();
    Map<String, Object> refused = call("apply_patch", Map.of("patch", patch));
    assertThat(refused).as(refused.toString()).containsEntry("code", code);
    assertThat(files()).isEqualTo(before);
  }

  /** Every file under the base but the ledger, which records the refused checks. */
  private Map<String, String> files() {
    Map<String, String> files = new TreeMap<>(McpTestServer.snapshot(base));
    files.keySet().removeIf(path -> path.startsWith("root/repo/.capability"));
    return files;
  }
}
