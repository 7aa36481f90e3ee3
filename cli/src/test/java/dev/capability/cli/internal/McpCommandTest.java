package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.mcp.McpCodes;
import dev.capability.mcp.McpJson;
import dev.capability.testing.Git;
import dev.capability.testing.Ownership;
import dev.capability.testing.RequiredBackends;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capability mcp}: the real CLI in a child JVM serving stdio to the MCP SDK's real client,
 * and refusing to start on a bad configuration.
 */
class McpCommandTest {
  private static final String POLICY = """
      {"version": 1, "timeoutMillis": 60000, "maxOutputBytes": 1048576, "network": "none", "projectWrites": "read-only",
       "environment": {"inherit": ["PATH"]},
       "executables": {"cat": {"name": "cat", "arguments": {"operands": {"kind": "path", "minCount": 1}, "doubleDash": "optional"}}}}
      """;

  @TempDir Path base;

  private Path repository() throws IOException {
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path root = Files.createDirectories(base.resolve("root"));
    Path repository = Files.createDirectories(root.resolve("repo"));
    Git.git(repository, "init", "-q");
    Files.writeString(repository.resolve("a.txt"), "alpha needle\n");
    Ownership.readableByEveryone(root);
    Files.writeString(base.resolve("policy.json"), POLICY);
    return repository;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> call(McpSyncClient client, String tool, Map<String, Object> arguments) {
    return (Map<String, Object>) client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build()).structuredContent();
  }

  @Test
  @SuppressWarnings("unchecked")
  void aStdioSessionWithTheRealCliChecksRunsReadsAndVerifiesTheLedger() throws IOException {
    Path repository = repository();
    ServerParameters cli = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
        .args("-cp", System.getProperty("java.class.path"), "dev.capability.cli.Main", "mcp",
            "--policy", base.resolve("policy.json").toString(), "--allowed-root", base.resolve("root").toString())
        .env(Map.of("PATH", System.getenv("PATH")))
        .build();
    McpSyncClient client = McpClient.sync(new StdioClientTransport(cli, McpJson.mapper()))
        .jsonSchemaValidator(McpJson.schemaValidator()).requestTimeout(Duration.ofMinutes(2)).initializationTimeout(Duration.ofMinutes(2)).build();
    try {
      client.initialize();
      assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
          .contains("check_command", "run_command", "read_file", "list_files", "search_text", "ledger_verify");
      String repo = repository.toString();
      assertThat(call(client, "check_command", Map.of("repository", repo, "argv", List.of("cat", "/etc/passwd"))))
          .containsEntry("decision", "DENY").containsEntry("argIndex", 1);
      assertThat(call(client, "read_file", Map.of("repository", repo, "path", "a.txt"))).containsEntry("content", "alpha needle\n");
      assertThat((List<Object>) call(client, "search_text", Map.of("repository", repo, "query", "needle")).get("matches")).hasSize(1);
      assertThat(call(client, "list_files", Map.of("repository", base.toString()))).containsEntry("code", McpCodes.OUTSIDE_ALLOWED_ROOTS);

      BackendProvider.Availability bwrap = new BwrapBackendProvider().probe();
      if (!bwrap.available()) {
        RequiredBackends.skipOrFail("bwrap is not available: " + bwrap.reason());
      }
      Map<String, Object> ran = call(client, "run_command", Map.of("repository", repo, "command", "cat a.txt"));
      assertThat(ran).containsEntry("status", "COMPLETED");
      assertThat((Map<String, Object>) ran.get("stdout")).containsEntry("text", "alpha needle\n");
      assertThat((Map<String, Object>) ((Map<String, Object>) ran.get("attestation")).get("backend")).containsEntry("id", "bwrap");
      assertThat(call(client, "ledger_verify", Map.of("repository", repo))).containsEntry("status", "INTACT");
    } finally {
      client.closeGracefully();
    }
  }

  @Test
  void overHttpWithoutAllowedRootsTheServerRefusesToStart() throws IOException {
    repository();
    CliRunner.Outcome outcome = CliRunner.run(Map.of(), "", "mcp", "--http", "--port", "0", "--policy", base.resolve("policy.json").toString());
    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).contains(McpCodes.CONFIG_INVALID).contains("allowed root");
  }

  @Test
  void aWildcardBindWithoutAHostAllowlistOrANonLoopbackBindWithoutATokenRefusesToStart() throws IOException {
    repository();
    String policy = base.resolve("policy.json").toString();
    String root = base.resolve("root").toString();
    CliRunner.Outcome wildcard = CliRunner.run(Map.of(), "", "mcp", "--http", "--port", "0", "--policy", policy, "--allowed-root", root,
        "--bind", "0.0.0.0");
    assertThat(wildcard.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(wildcard.err()).contains(McpCodes.CONFIG_INVALID).contains("Host allowlist");
    CliRunner.Outcome tokenless = CliRunner.run(Map.of(), "", "mcp", "--http", "--port", "0", "--policy", policy, "--allowed-root", root,
        "--bind", "0.0.0.0", "--allowed-host", "mcp.example");
    assertThat(tokenless.err()).contains(McpCodes.CONFIG_INVALID).contains("bearer token");
  }

  @Test
  void aTokenFileOthersCanReadRefusesToStart() throws IOException {
    repository();
    Path token = Files.writeString(base.resolve("token"), "x".repeat(40));
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
    CliRunner.Outcome outcome = CliRunner.run(Map.of(), "", "mcp", "--http", "--port", "0", "--policy", base.resolve("policy.json").toString(),
        "--allowed-root", base.resolve("root").toString(), "--token-file", token.toString());
    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).contains(McpCodes.CONFIG_INVALID).contains("owner only");
  }

  @Test
  void aPolicyThatDoesNotLoadRefusesToStart() throws IOException {
    repository();
    Files.writeString(base.resolve("policy.json"), "{\"version\": 1, \"executables\": {\"cat\": {\"exact\": 7}}}");
    CliRunner.Outcome outcome = CliRunner.run(Map.of(), "", "mcp", "--http", "--port", "0", "--policy", base.resolve("policy.json").toString(),
        "--allowed-root", base.resolve("root").toString());
    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).contains(McpCodes.CONFIG_INVALID);
  }

  @Test
  void anAcceptanceCommandThatIsNotAnExactOperatorCommandRefusesToStart() throws IOException {
    Path repository = repository();
    String policy = base.resolve("policy.json").toString();
    String root = base.resolve("root").toString();
    CliRunner.Outcome shell = CliRunner.run(Map.of(), "", "mcp", "--http", "--port", "0", "--policy", policy, "--allowed-root", root,
        "--acceptance-command", "cat a.txt; touch pwned");
    assertThat(shell.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(shell.err()).contains(McpCodes.CONFIG_INVALID).contains("SHELL_SYNTAX");
    CliRunner.Outcome typed = CliRunner.run(Map.of(), "", "mcp", "--http", "--port", "0", "--policy", policy, "--allowed-root", root,
        "--acceptance-command", "cat a.txt");
    assertThat(typed.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(typed.err()).contains(McpCodes.CONFIG_INVALID).contains("exact argument lists");
    assertThat(repository.resolve("pwned")).doesNotExist();
  }
}
