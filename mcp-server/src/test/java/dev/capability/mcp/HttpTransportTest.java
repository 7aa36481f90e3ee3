package dev.capability.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.testing.RequiredBackends;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server over streamable HTTP on a real loopback listener, driven by the SDK's real client and by raw attack requests. */
class HttpTransportTest {
  private static final byte[] INITIALIZE = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
      + "\"capabilities\":{},\"clientInfo\":{\"name\":\"attacker\",\"version\":\"1\"}}}").getBytes(StandardCharsets.UTF_8);

  @TempDir Path base;
  private McpTestServer layout;
  private CapabilityMcpServer server;
  private HttpEndpoint endpoint;
  private McpSyncClient client;

  @BeforeEach
  void start() throws IOException {
    layout = new McpTestServer(base);
    server = CapabilityMcpServer.create(layout.config());
    endpoint = server.startHttp(
        new HttpSettings("127.0.0.1", 0, List.of(), List.of(), Optional.empty(), 64 << 10, 4, Duration.ofMinutes(2)));
    client = McpTestServer.client(endpoint.uri());
  }

  @AfterEach
  void stop() {
    client.closeGracefully();
    endpoint.close();
    server.close();
  }

  private Map<String, Object> call(String tool, Map<String, Object> arguments) {
    return McpTestServer.call(client, tool, arguments);
  }

  private String repo() {
    return layout.repository.toString();
  }

  @Test
  void listsEveryToolWithTruthfulAnnotations() {
    List<McpSchema.Tool> tools = client.listTools().tools();
    assertThat(tools).extracting(McpSchema.Tool::name).containsExactly("parse_command", "check_command", "run_command", "read_file",
        "list_files", "search_text", "inspect_capability", "plan_capability", "run_capability", "ledger_list", "ledger_show",
        "ledger_verify", "get_contract", "save_plan", "amend_plan", "get_plan", "verify_phase", "complete_phase", "phase_status",
        "record_assumption", "invalidate_assumption", "expand_correction_scope", "apply_patch");
    assertThat(tools).allSatisfy(tool -> assertThat(tool.inputSchema()).containsEntry("type", "object"));
    McpSchema.Tool run = tools.stream().filter(t -> t.name().equals("run_command")).findFirst().orElseThrow();
    assertThat(run.annotations().readOnlyHint()).isFalse();
    assertThat(run.annotations().destructiveHint()).isTrue();
    McpSchema.Tool read = tools.stream().filter(t -> t.name().equals("read_file")).findFirst().orElseThrow();
    assertThat(read.annotations().readOnlyHint()).isTrue();
    assertThat(read.annotations().openWorldHint()).isFalse();
    McpSchema.Tool patch = tools.stream().filter(t -> t.name().equals("apply_patch")).findFirst().orElseThrow();
    assertThat(patch.annotations().readOnlyHint()).isFalse();
    assertThat(patch.annotations().destructiveHint()).isTrue();
    McpSchema.Tool status = tools.stream().filter(t -> t.name().equals("phase_status")).findFirst().orElseThrow();
    assertThat(status.annotations().readOnlyHint()).isTrue();
  }

  @Test
  void parseCommandSplitsWithoutAShellAndRefusesShellSyntax() {
    assertThat(call("parse_command", Map.of("command", "cat 'a b' c"))).containsEntry("argv", List.of("cat", "a b", "c"));
    Map<String, Object> refused = call("parse_command", Map.of("command", "cat a | sh"));
    assertThat(refused).containsEntry("code", "SHELL_SYNTAX").containsEntry("construct", "pipe");
  }

  @Test
  void checkCommandExplainsTheLayerRuleAndArgument() {
    assertThat(call("check_command", Map.of("repository", repo(), "argv", List.of("cat", "a.txt")))).containsEntry("decision", "ALLOW");
    Map<String, Object> denied = call("check_command", Map.of("repository", repo(), "argv", List.of("cat", "/etc/passwd")));
    assertThat(denied).containsEntry("decision", "DENY").containsEntry("layer", "operator").containsEntry("argIndex", 1);
    assertThat((String) denied.get("code")).isNotBlank();
    assertThat((String) denied.get("rule")).isNotBlank();
  }

  @Test
  @SuppressWarnings("unchecked")
  void runCommandRunsUnderBwrapAndTheLedgerVerifiesIntact() {
    BackendProvider.Availability bwrap = new BwrapBackendProvider().probe();
    if (!bwrap.available()) {
      RequiredBackends.skipOrFail("bwrap is not available: " + bwrap.reason());
    }
    Map<String, Object> ran = call("run_command", Map.of("repository", repo(), "argv", List.of("cat", "a.txt")));
    assertThat(ran).containsEntry("status", "COMPLETED").containsEntry("exitCode", 0);
    assertThat((Map<String, Object>) ran.get("stdout")).containsEntry("text", "alpha needle\nbeta\n").containsEntry("truncated", false);
    Map<String, Object> attestation = (Map<String, Object>) ran.get("attestation");
    assertThat((Map<String, Object>) attestation.get("backend")).containsEntry("id", "bwrap");

    assertThat(call("ledger_verify", Map.of("repository", repo()))).containsEntry("status", "INTACT");
    List<Map<String, Object>> records = (List<Map<String, Object>>) call("ledger_list", Map.of("repository", repo())).get("records");
    assertThat(records).isNotEmpty();
    long sequence = ((Number) records.get(0).get("seq")).longValue();
    assertThat(call("ledger_show", Map.of("repository", repo(), "sequence", sequence))).containsEntry("seq", (int) sequence);
  }

  @Test
  @SuppressWarnings("unchecked")
  void runCommandWithAShellOperatorIsDeniedAndRunsNothing() {
    Map<String, Object> ran = call("run_command", Map.of("repository", repo(), "command", "cat a.txt; cat a.txt > pwned"));
    assertThat(ran).containsEntry("status", "DENIED");
    assertThat((Map<String, Object>) ran.get("decision")).containsEntry("code", "SHELL_SYNTAX");
    assertThat(layout.repository.resolve("pwned")).doesNotExist();
  }

  @Test
  @SuppressWarnings("unchecked")
  void readsListsAndSearchesInsideTheRootButNeverGitOrTheLedger() {
    assertThat(call("read_file", Map.of("repository", repo(), "path", "a.txt"))).containsEntry("content", "alpha needle\nbeta\n");
    assertThat(call("read_file", Map.of("repository", repo(), "path", ".git/config"))).containsEntry("code", McpCodes.PROTECTED_PATH);
    // Nor by naming .git itself as the repository.
    assertThat(call("read_file", Map.of("repository", layout.repository.resolve(".git").toString(), "path", "config")))
        .containsEntry("code", McpCodes.PROTECTED_PATH);
    List<Map<String, Object>> entries = (List<Map<String, Object>>) call("list_files", Map.of("repository", repo())).get("entries");
    assertThat(entries).extracting(e -> e.get("path")).contains("a.txt", "src", "src/Main.java", "escape.txt").doesNotContain(".git", ".git/config", ".capability");
    assertThat(entries).filteredOn(e -> e.get("path").equals("escape.txt")).extracting(e -> e.get("type")).containsExactly("symlink");
    List<Map<String, Object>> matches = (List<Map<String, Object>>) call("search_text", Map.of("repository", repo(), "query", "needle")).get("matches");
    // Not the secret behind the symlink, not .git/config.
    assertThat(matches).extracting(m -> m.get("path")).containsExactlyInAnyOrder("a.txt", "src/Main.java");
  }

  @Test
  void aRepositoryOutsideTheRootsIsRefusedAlsoThroughASymlink() {
    Map<String, String> before = McpTestServer.snapshot(base);
    assertThat(call("list_files", Map.of("repository", layout.outside.toString()))).containsEntry("code", McpCodes.OUTSIDE_ALLOWED_ROOTS);
    assertThat(call("check_command", Map.of("repository", layout.root.resolve("link-out").toString(), "argv", List.of("cat", "secret.txt"))))
        .containsEntry("code", McpCodes.OUTSIDE_ALLOWED_ROOTS);
    assertThat(call("run_command", Map.of("repository", layout.root.resolve("link-out").toString(), "argv", List.of("cat", "secret.txt"))))
        .containsEntry("code", McpCodes.OUTSIDE_ALLOWED_ROOTS);
    assertThat(McpTestServer.isError(client, "read_file", Map.of("repository", layout.root.resolve("link-out").toString(), "path", "secret.txt"))).isTrue();
    assertThat(McpTestServer.snapshot(base)).isEqualTo(before);
  }

  @Test
  void aReadThroughASymlinkThatLeavesTheRepositoryIsRefused() {
    Map<String, Object> refused = call("read_file", Map.of("repository", repo(), "path", "escape.txt"));
    assertThat(refused).containsEntry("code", McpCodes.OUTSIDE_ALLOWED_ROOTS);
    assertThat(refused.toString()).doesNotContain("secret needle");
    assertThat(call("read_file", Map.of("repository", repo(), "path", "../../outside/secret.txt"))).containsEntry("code", McpCodes.OUTSIDE_ALLOWED_ROOTS);
  }

  private RawHttp.Response raw(Map<String, String> headers, byte[] body) throws IOException {
    return RawHttp.post(InetAddress.getByName("127.0.0.1"), endpoint.uri().getPort(), headers, body);
  }

  @Test
  void aForeignHostHeaderIsRefusedBeforeTheProtocol() throws IOException {
    Map<String, String> before = McpTestServer.snapshot(base);
    RawHttp.Response response = raw(Map.of("Host", "attacker.example:" + endpoint.uri().getPort()), INITIALIZE);
    assertThat(response.status()).isEqualTo(421);
    assertThat(response.body()).contains(McpCodes.HOST_REFUSED);
    assertThat(raw(Map.of("Host", "localhost:" + endpoint.uri().getPort()), INITIALIZE).status()).isEqualTo(200);
    assertThat(McpTestServer.snapshot(base)).isEqualTo(before);
  }

  @Test
  void anOriginFromAnotherSiteIsRefused() throws IOException {
    String host = "127.0.0.1:" + endpoint.uri().getPort();
    RawHttp.Response response = raw(Map.of("Host", host, "Origin", "https://attacker.example"), INITIALIZE);
    assertThat(response.status()).isEqualTo(403);
    assertThat(response.body()).contains(McpCodes.ORIGIN_REFUSED);
    // Another port on the same host is another site too.
    assertThat(raw(Map.of("Host", host, "Origin", "http://127.0.0.1:1"), INITIALIZE).status()).isEqualTo(403);
    assertThat(raw(Map.of("Host", host, "Origin", "http://" + host), INITIALIZE).status()).isEqualTo(200);
  }

  @Test
  void aBodyOverTheLimitIsRefused() throws IOException {
    byte[] big = new byte[(64 << 10) + 1];
    java.util.Arrays.fill(big, (byte) ' ');
    RawHttp.Response response = raw(Map.of("Host", "127.0.0.1:" + endpoint.uri().getPort()), big);
    assertThat(response.status()).isEqualTo(413);
    assertThat(response.body()).contains(McpCodes.REQUEST_TOO_LARGE);
  }

  @Test
  void aNonLoopbackBindWithoutATokenOrAWildcardWithoutHostsDoesNotStart() {
    assertThatThrownBy(() -> new HttpSettings("0.0.0.0", 0, List.of(), List.of(), Optional.of("x".repeat(40)), 1024, 1, Duration.ofSeconds(5)))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(McpCodes.CONFIG_INVALID))
        .hasMessageContaining("Host allowlist");
    assertThatThrownBy(() -> new HttpSettings("0.0.0.0", 0, List.of("mcp.internal"), List.of(), Optional.empty(), 1024, 1, Duration.ofSeconds(5)))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(McpCodes.CONFIG_INVALID))
        .hasMessageContaining("bearer token");
  }

  @Test
  void aServerWithABadPolicyOrNoRootsRefusesToStart() throws IOException {
    Files.writeString(layout.policy, "{\"version\": 1, \"executables\": {\"cat\": {\"name\": \"cat\", \"exact\": \"not a list\"}}}");
    assertThatThrownBy(() -> CapabilityMcpServer.create(layout.config()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(McpCodes.CONFIG_INVALID));
    assertThatThrownBy(() -> new McpServerConfig(List.of(), layout.policy, null, java.util.Set.of(), Map.of(), new SqliteEvidence()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(McpCodes.CONFIG_INVALID));
  }

  @Test
  void aNonLoopbackBindNeedsTheBearerToken() throws IOException {
    InetAddress address = nonLoopbackAddress();
    String token = "t".repeat(20) + "0123456789abcdefghij";
    try (HttpEndpoint remote = server.startHttp(
        new HttpSettings(address.getHostAddress(), 0, List.of(), List.of(), Optional.of(token), 64 << 10, 4, Duration.ofMinutes(1)))) {
      String host = address.getHostAddress() + ":" + remote.uri().getPort();
      RawHttp.Response missing = RawHttp.post(address, remote.uri().getPort(), Map.of("Host", host), INITIALIZE);
      assertThat(missing.status()).isEqualTo(401);
      assertThat(missing.body()).contains(McpCodes.UNAUTHORIZED);
      RawHttp.Response wrong = RawHttp.post(address, remote.uri().getPort(),
          Map.of("Host", host, "Authorization", "Bearer " + token.substring(1) + "x"), INITIALIZE);
      assertThat(wrong.status()).isEqualTo(401);
      RawHttp.Response right = RawHttp.post(address, remote.uri().getPort(), Map.of("Host", host, "Authorization", "Bearer " + token), INITIALIZE);
      assertThat(right.status()).isEqualTo(200);
    }
  }

  /** A local IPv4 address that is not loopback and can be bound, or the test is skipped saying there is none. */
  private static InetAddress nonLoopbackAddress() throws SocketException {
    for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!network.isUp() || network.isLoopback()) {
        continue;
      }
      for (InetAddress address : Collections.list(network.getInetAddresses())) {
        if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
          try (ServerSocket probe = new ServerSocket(0, 1, address)) {
            probe.getLocalPort();
            return address;
          } catch (IOException e) {
            // Not bindable here (a stale address): try the next.
          }
        }
      }
    }
    Assumptions.abort("this machine has no bindable non-loopback IPv4 address to test a non-loopback bind on");
    throw new AssertionError("unreachable");
  }
}
