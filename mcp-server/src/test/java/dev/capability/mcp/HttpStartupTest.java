package dev.capability.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance commands an operator configures for HTTP are checked before the server listens:
 * a command with shell syntax, one the policy refuses, or one it allows only by a typed rule stops
 * the server with {@code MCP_CONFIG_INVALID}, and nothing answers on the port.
 */
class HttpStartupTest {
  private static final String POLICY = """
      {"version": 1, "timeoutMillis": 60000, "maxOutputBytes": 1048576, "network": "none", "projectWrites": "read-only",
       "environment": {"inherit": ["PATH"]},
       "executables": {
         "cat": {"name": "cat", "exact": [["a.txt"]]},
         "ls": {"name": "ls", "arguments": {"operands": {"kind": "path", "minCount": 1}}}}}
      """;

  @TempDir Path base;
  private CapabilityMcpServer server;

  @BeforeEach
  void setUp() throws IOException {
    Path root = Files.createDirectories(base.resolve("root"));
    Files.writeString(root.resolve("a.txt"), "a\n");
    Path policy = base.resolve("policy.json");
    Files.writeString(policy, POLICY);
    server = CapabilityMcpServer.create(new McpServerConfig(List.of(root), policy, null, Set.of(),
        Map.of("PATH", System.getenv("PATH")), new SqliteEvidence()));
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  @Test
  void anExactOperatorCommandLetsTheServerListen() {
    try (HttpEndpoint endpoint = server.startHttp(HttpSettings.loopback(0), List.of("cat a.txt"))) {
      assertThat(endpoint.uri().getPort()).isPositive();
    }
  }

  @Test
  void aCommandWithAShellOperatorStopsTheServerBeforeItListens() throws IOException {
    assertRefusedToStart("cat a.txt; rm -rf .", "SHELL_SYNTAX");
  }

  @Test
  void aCommandThePolicyRefusesStopsTheServerBeforeItListens() throws IOException {
    assertRefusedToStart("cat /etc/passwd", "refuses it");
  }

  @Test
  void aCommandAllowedOnlyByATypedRuleStopsTheServerBeforeItListens() throws IOException {
    assertRefusedToStart("ls a.txt", "not by one of its exact argument lists");
  }

  private void assertRefusedToStart(String command, String why) throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    assertThatThrownBy(() -> server.startHttp(HttpSettings.loopback(port), List.of("cat a.txt", command)))
        .isInstanceOf(CapabilityException.class)
        .satisfies(e -> assertThat(((CapabilityException) e).code()).isEqualTo(McpCodes.CONFIG_INVALID))
        .hasMessageContaining(command).hasMessageContaining(why);
    try (Socket socket = new Socket()) {
      assertThatThrownBy(() -> socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000))
          .isInstanceOf(ConnectException.class);
    }
  }
}
