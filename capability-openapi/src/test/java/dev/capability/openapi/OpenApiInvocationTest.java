package dev.capability.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.Approval;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectPolicies;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.ExecutionOutcome;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.capability.runtime.Executor;
import dev.capability.discovery.NetworkAccess;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.capability.runtime.internal.exec.InProcessExecutor;
import dev.capability.openapi.invoker.HttpOperationInvoker;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.testing.Ownership;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Imported operations run: import, inspect, plan and run against a real loopback HTTP server. */
class OpenApiInvocationTest {
  private static final BackendGate GATE = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String DOCUMENT = """
      {"openapi": "3.1.0", "info": {"title": "Notes", "version": "1.0.0"},
       "servers": [{"url": "http://127.0.0.1:PORT/api"}],
       "paths": {
         "/notes/{noteId}": {"get": {"operationId": "getNote", "parameters": [
             {"name": "noteId", "in": "path", "required": true, "schema": {"type": "string"}},
             {"name": "verbose", "in": "query", "schema": {"type": "boolean"}},
             {"name": "q", "in": "query", "schema": {"type": "string"}},
             {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
             {"name": "session", "in": "cookie", "schema": {"type": "string"}}],
           "responses": {"200": {"description": "ok"}}}},
         "/notes": {"post": {"operationId": "addNote",
           "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}},
           "responses": {"201": {"description": "created"}}}},
         "/moved": {"get": {"operationId": "moved", "responses": {"302": {"description": "elsewhere"}}}},
         "/big": {"get": {"operationId": "big", "responses": {"200": {"description": "ok"}}}},
         "/worst": {"get": {"operationId": "worst", "responses": {"200": {"description": "ok"}}}}
       }}
      """;

  @TempDir Path work;
  private HttpServer server;
  private final List<String> seen = new ArrayList<>();
  private Path imported;

  @BeforeEach
  void serveAndImport() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        byte[] request = exchange.getRequestBody().readAllBytes();
        synchronized (seen) {
          seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath()
              + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery())
              + " trace=" + exchange.getRequestHeaders().getFirst("X-Trace")
              + " cookie=" + exchange.getRequestHeaders().getFirst("Cookie")
              + " type=" + exchange.getRequestHeaders().getFirst("Content-Type")
              + " body=" + new String(request, StandardCharsets.UTF_8));
        }
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/api/moved")) {
          exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + server.getAddress().getPort() + "/api/elsewhere");
          exchange.sendResponseHeaders(302, -1);
          return;
        }
        byte[] body = switch (path) {
          case "/api/big" -> new byte[HttpOperationInvoker.MAX_RESPONSE_BYTES + 1];
          case "/api/worst" -> worstCaseBody();
          default -> "said \"hi\"\n".getBytes(StandardCharsets.UTF_8);
        };
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.start();
    // The sandbox runs as nobody: the packages must be readable by it.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    imported = work.resolve("imported");
    OpenApiImport.write(OpenApiImport.read(document().getBytes(StandardCharsets.UTF_8), loopback()), imported);
    Ownership.readableByEveryone(imported);
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @AfterAll
  static void close() {
    GATE.close();
  }

  /** The largest body, all control characters: the most its escaping can grow. */
  private static byte[] worstCaseBody() {
    byte[] body = new byte[HttpOperationInvoker.MAX_RESPONSE_BYTES];
    Arrays.fill(body, (byte) 1);
    return body;
  }

  private String document() {
    return DOCUMENT.replace("PORT", Integer.toString(server.getAddress().getPort()));
  }

  private static ImportOptions loopback() {
    return ImportOptions.defaults().withAccess(NetworkAccess.loopbackForTests());
  }

  private String hostPort() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private ExecutionReceipt run(Executor executor, EffectPolicy policy, String operation, String input) {
    CapabilityPackage pkg = CapabilityPackages.open(imported.resolve(operation));
    // Not closed: closing the runtime would close the shared backend the gate owns.
    CapabilityRuntime runtime = CapabilityRuntime.builder().executor(executor).policy(policy).receipts(receipt -> {}).build();
    return runtime.run(pkg, input);
  }

  private ExecutionReceipt inProcess(String operation, String input) {
    // The host network, unfiltered: these tests check what the invoker sends, not the boundary.
    return run(new InProcessExecutor(true), EffectPolicies.permissive(Approval::grant), operation, input);
  }

  @Test
  void anImportedOperationIsAPackageThatInspectsCleanAndDeclaresOnlyItsServer() {
    CapabilityPackage pkg = CapabilityPackages.open(imported.resolve("get-note"));

    assertThat(pkg.descriptor().effects()).containsExactly(Effect.of("network.connect", hostPort()));
    assertThat(pkg.descriptor().entry().className()).isEqualTo("dev.capability.openapi.invoker.HttpOperationInvoker");
  }

  @Test
  void theEffectScanSeesTheInvokersNetworkUse() throws IOException {
    Path manifest = imported.resolve("get-note/capability.json");
    Files.writeString(manifest, Files.readString(manifest).replace("\"network.connect\" : [ \"" + hostPort() + "\" ]", ""));

    assertThatThrownBy(() -> CapabilityPackages.open(imported.resolve("get-note")))
        .isInstanceOf(CapabilityException.class)
        .extracting(e -> ((CapabilityException) e).code()).isEqualTo(CapabilityCodes.EFFECT_UNDECLARED);
  }

  @Test
  void sendsTheBoundRequestWithEveryParameterEncodedInItsPlace() {
    ExecutionReceipt receipt = inProcess("get-note",
        "{\"path\":{\"noteId\":\"a/../b c\"},\"query\":{\"verbose\":true,\"q\":\"x&y=z\"},\"header\":{\"X-Trace\":\"t1\"},\"cookie\":{\"session\":\"s;1\"}}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.output()).hasValue("{\"status\":200,\"body\":\"said \\\"hi\\\"\\n\"}");
    assertThat(seen).containsExactly("GET /api/notes/a%2F%2E%2E%2Fb%20c?verbose=true&q=x%26y%3Dz trace=t1 cookie=session=s%3B1 type=null body=");
  }

  @Test
  void sendsAJsonBodyAsItsRawText() {
    ExecutionReceipt receipt = inProcess("add-note", "{\"body\":{\"text\":\"hi\",\"tags\":[1,2]}}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(seen).containsExactly("POST /api/notes trace=null cookie=null type=application/json body={\"text\":\"hi\",\"tags\":[1,2]}");
  }

  @Test
  void followsNoRedirect() {
    ExecutionReceipt receipt = inProcess("moved", "{}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.output()).hasValue("{\"status\":302,\"body\":\"\"}");
    assertThat(seen).hasSize(1).allMatch(request -> request.startsWith("GET /api/moved "));
  }

  @Test
  void aResponseBodyOverTheLimitFailsTheRun() {
    ExecutionReceipt receipt = inProcess("big", "{}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(receipt.message()).contains("larger than " + HttpOperationInvoker.MAX_RESPONSE_BYTES + " bytes");
  }

  @Test
  void aHeaderValueCannotSmuggleAnotherHeader() {
    ExecutionReceipt receipt = inProcess("get-note", "{\"path\":{\"noteId\":\"1\"},\"header\":{\"X-Trace\":\"t\\r\\nX-Evil: 1\"}}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(receipt.message()).contains("control character");
    assertThat(seen).isEmpty();
  }

  @Test
  void anApprovedConnectionIsRefusedOnABackendThatCannotFilterEgressAndNothingIsSent() {
    Executor executor = new ChildJvmExecutor("bwrap", false, List.of(GATE.backend()), work);

    ExecutionReceipt receipt = run(executor, EffectPolicies.permissive(Approval::grant), "get-note", "{\"path\":{\"noteId\":\"n1\"}}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo(CapabilityCodes.NETWORK_FILTER_UNAVAILABLE);
    assertThat(seen).isEmpty();
  }

  @Test
  void withoutTheApprovalTheRunIsRefusedAndNothingIsSent() {
    Executor executor = new ChildJvmExecutor("bwrap", false, List.of(GATE.backend()), work);

    ExecutionReceipt receipt = run(executor, EffectPolicies.permissive(request -> Approval.refuse(request, "not today")), "get-note",
        "{\"path\":{\"noteId\":\"n1\"}}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo(CapabilityCodes.APPROVAL_REFUSED);
    assertThat(seen).isEmpty();
  }
}
