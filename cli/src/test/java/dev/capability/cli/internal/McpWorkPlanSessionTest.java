package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.mcp.McpJson;
import dev.capability.testing.Git;
import dev.capability.testing.RequiredBackends;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole work-plan session over stdio: the real CLI in a child JVM serving the SDK's real client,
 * on a real Git repository whose ledger the operator's {@code capability contract set} started.
 * The agent saves a plan, runs its acceptance command, patches inside the phase, verifies it,
 * invalidates an assumption, and the ledger verifies intact.
 */
class McpWorkPlanSessionTest {
  private static final String POLICY = """
      {"version": 1, "timeoutMillis": 60000, "maxOutputBytes": 1048576, "network": "none",
       "projectWrites": "scoped", "writeScopes": ["src/**"],
       "environment": {"inherit": ["PATH"]},
       "executables": {
         "cat": {"name": "cat", "exact": [["src/Calc.txt"]]},
         "git": {"name": "git", "arguments": {"subcommands": {"apply": {"flags": {"--check": {}, "--numstat": {}, "-z": {}}}}}}}}
      """;
  private static final String PATCH = """
      diff --git a/src/Calc.txt b/src/Calc.txt
      --- a/src/Calc.txt
      +++ b/src/Calc.txt
      @@ -1 +1 @@
      -one
      +two
      """;

  @TempDir Path base;

  @Test
  @SuppressWarnings("unchecked")
  void anAgentWorksAPhaseOverStdioAndTheLedgerVerifiesIntact() throws IOException {
    BackendProvider.Availability bwrap = new BwrapBackendProvider().probe();
    if (!bwrap.available()) {
      RequiredBackends.skipOrFail("bwrap is not available: " + bwrap.reason());
    }
    Files.setAttribute(base, "unix:mode", 0755);
    Path root = Files.createDirectories(base.resolve("root"));
    Files.setAttribute(root, "unix:mode", 0755);
    Path repository = Files.createDirectories(root.resolve("repo"));
    Git.git(repository, "init", "-q");
    // The sandbox may run as another uid: it must be able to replace the file it patches.
    Files.setAttribute(repository, "unix:mode", 0777);
    Files.setAttribute(Files.createDirectories(repository.resolve("src")), "unix:mode", 0777);
    Files.setAttribute(Files.writeString(repository.resolve("src/Calc.txt"), "one\n"), "unix:mode", 0666);
    Path policy = Files.writeString(base.resolve("policy.json"), POLICY);
    Path contract = Files.writeString(base.resolve("contract.json"), "{\"version\": 1, \"writeScopes\": [\"src/**\"]}");
    CliRunner.Outcome set = CliRunner.run(Map.of(), "", "contract", "set", contract.toString(), "--repo", repository.toString(),
        "--policy", policy.toString());
    assertThat(set.exitCode()).as(set.err()).isZero();

    ServerParameters cli = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
        .args("-cp", System.getProperty("java.class.path"), "dev.capability.cli.Main", "mcp",
            "--policy", policy.toString(), "--allowed-root", root.toString())
        .env(Map.of("PATH", System.getenv("PATH")))
        .build();
    McpSyncClient client = McpClient.sync(new StdioClientTransport(cli, McpJson.mapper()))
        .jsonSchemaValidator(McpJson.schemaValidator()).requestTimeout(Duration.ofMinutes(2)).initializationTimeout(Duration.ofMinutes(2)).build();
    try {
      client.initialize();
      String repo = repository.toRealPath().toString();
      Map<String, Object> saved = call(client, "save_plan", repo, Map.of("plan", Map.of("version", 1, "id", "calc", "title", "Calc",
          "phases", List.of(Map.of("id", "impl", "goal", "Calc says two", "writeScopes", List.of("src/**"),
              "acceptance", List.of("cat src/Calc.txt"))))));
      assertThat(saved).as(saved.toString()).containsEntry("revision", 1);
      Map<String, Object> ran = call(client, "run_command", repo, Map.of("command", "cat src/Calc.txt"));
      assertThat(ran).containsEntry("status", "COMPLETED");
      Map<String, Object> applied = call(client, "apply_patch", repo, Map.of("patch", PATCH));
      assertThat(applied).as(applied.toString()).containsEntry("paths", List.of("src/Calc.txt"));
      assertThat(Files.readString(repository.resolve("src/Calc.txt"))).isEqualTo("two\n");
      assertThat(call(client, "verify_phase", repo, Map.of())).containsEntry("passed", true);
      call(client, "record_assumption", repo, Map.of("assumption", Map.of("version", 1, "id", "word", "statement", "Calc holds a word",
          "confidence", 0.5, "links", Map.of("files", List.of("src/Calc.txt")))));
      assertThat(call(client, "invalidate_assumption", repo, Map.of("assumptionId", "word", "rootCause", "it holds a number")))
          .containsEntry("radius", List.of("src/Calc.txt"));
      assertThat(call(client, "ledger_verify", repo, Map.of())).containsEntry("status", "INTACT");
    } finally {
      client.closeGracefully();
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> call(McpSyncClient client, String tool, String repository, Map<String, Object> arguments) {
    Map<String, Object> all = new TreeMap<>(arguments);
    all.put("repository", repository);
    return (Map<String, Object>) client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(all).build()).structuredContent();
  }
}
