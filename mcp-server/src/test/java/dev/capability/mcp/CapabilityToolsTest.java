package dev.capability.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.capability.runtime.TestPackages;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.testing.Ownership;
import dev.capability.testing.RequiredBackends;
import io.modelcontextprotocol.client.McpSyncClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capability tools over HTTP: an approval never comes from the agent, only from the operator's pre-approval. */
class CapabilityToolsTest {
  private static final String ENTRY = "com.example.Loader";
  private static final String SOURCE = """
      package com.example;
      public final class Loader implements dev.capability.capability.api.Capability {
        @Override
        public String execute(String in, dev.capability.capability.api.CapabilityContext context) {
          try {
            return "{\\"found\\":\\"" + Class.forName("java.lang.String").getName() + "\\"}";
          } catch (ClassNotFoundException e) {
            return "{}";
          }
        }
        @Override
        public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
      }
      """;

  @TempDir Path base;
  private McpTestServer layout;
  private Path pkg;

  @BeforeEach
  void layout() throws IOException {
    layout = new McpTestServer(base);
    byte[] jar = TestPackages.jar(java.nio.file.Files.createDirectories(base.resolve("work")), Map.of(ENTRY, SOURCE), null, Map.of());
    // Reflection is an effect the operator must approve.
    pkg = TestPackages.directory(layout.root.resolve("reflecting"), jar, ENTRY, "{\"code.dynamic\": [\"reflection\"]}");
    Ownership.readableByEveryone(layout.root);
  }

  @Test
  void aToolErrorRepeatsAUrlArgumentWithoutItsCredentials() {
    try (CapabilityMcpServer server = server(Set.of()); HttpEndpoint endpoint = server.startHttp(HttpSettings.loopback(0))) {
      McpSyncClient client = McpTestServer.client(endpoint.uri());
      Map<String, Object> arguments = Map.of("package", "https://user:s3cret@packages.example.com/p.zip?token=s3cret");

      assertThat(McpTestServer.isError(client, "inspect_capability", arguments)).isTrue();
      Map<String, Object> error = McpTestServer.call(client, "inspect_capability", arguments);
      assertThat(error.get("code")).isEqualTo(McpCodes.INVALID_ARGUMENT);
      assertThat((String) error.get("message"))
          .contains("https://redacted@packages.example.com/p.zip?token=redacted")
          .doesNotContain("s3cret");
    }
  }

  private CapabilityMcpServer server(Set<String> preApproved) {
    McpServerConfig config = layout.config();
    return CapabilityMcpServer.create(new McpServerConfig(config.allowedRoots(), config.policyFile(), null, preApproved,
        config.hostEnvironment(), config.evidence()));
  }

  private Map<String, Object> arguments() {
    return Map.of("repository", layout.repository.toString(), "package", pkg.toString(), "input", Map.of("text", "x"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void aPlanNeedingAnApprovalIsRefusedUnlessTheOperatorPreApprovedItsFingerprint() {
    String fingerprint;
    try (CapabilityMcpServer server = server(Set.of()); HttpEndpoint endpoint = server.startHttp(HttpSettings.loopback(0))) {
      McpSyncClient client = McpTestServer.client(endpoint.uri());
      assertThat((List<String>) McpTestServer.call(client, "inspect_capability", Map.of("package", pkg.toString())).get("effects"))
          .contains("code.dynamic(reflection)");
      Map<String, Object> plan = McpTestServer.call(client, "plan_capability", arguments());
      assertThat(plan).containsEntry("preApproved", false);
      fingerprint = (String) plan.get("fingerprint");

      Map<String, String> before = McpTestServer.snapshot(base);
      assertThat(McpTestServer.call(client, "run_capability", arguments())).containsEntry("code", McpCodes.APPROVAL_NOT_PREAUTHORIZED);
      // Refused before anything ran or was recorded: no ledger appeared.
      assertThat(McpTestServer.snapshot(base)).isEqualTo(before);
      assertThat(McpTestServer.call(client, "inspect_capability", Map.of("package", layout.outside.toString())))
          .containsEntry("code", McpCodes.OUTSIDE_ALLOWED_ROOTS);
      client.closeGracefully();
    }

    BackendProvider.Availability bwrap = new BwrapBackendProvider().probe();
    if (!bwrap.available()) {
      RequiredBackends.skipOrFail("bwrap is not available for the capability's child JVM: " + bwrap.reason());
    }
    try (CapabilityMcpServer server = server(Set.of(fingerprint)); HttpEndpoint endpoint = server.startHttp(HttpSettings.loopback(0))) {
      McpSyncClient client = McpTestServer.client(endpoint.uri());
      Map<String, Object> receipt = McpTestServer.call(client, "run_capability", arguments());
      assertThat(receipt).as(receipt.toString()).containsEntry("status", "SUCCEEDED");
      assertThat(McpTestServer.call(client, "ledger_verify", Map.of("repository", layout.repository.toString()))).containsEntry("status", "INTACT");
      client.closeGracefully();
    }
  }
}
