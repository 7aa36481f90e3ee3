package dev.capability.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.Approval;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectViolation;
import dev.capability.capability.runtime.EffectPolicies;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.ExecutionOutcome;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.capability.runtime.Executor;
import dev.capability.discovery.NetworkAccess;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.capability.runtime.internal.exec.InProcessExecutor;
import dev.capability.capability.runtime.support.ManifestRules;
import dev.capability.egress.EgressResolver;
import dev.capability.egress.NettyEgressGateway;
import dev.capability.openapi.invoker.HttpOperationInvoker;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.testing.Ownership;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
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
import java.util.Optional;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
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
    try (ExecutionBackend process = new ProcessBackendProvider().create(BackendConfig.defaults())) {
      Executor executor = new ChildJvmExecutor("process", true, List.of(process), work);

      ExecutionReceipt receipt = run(executor, EffectPolicies.permissive(Approval::grant), "get-note", "{\"path\":{\"noteId\":\"n1\"}}");

      assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
      assertThat(receipt.code()).isEqualTo(CapabilityCodes.NETWORK_FILTER_UNAVAILABLE);
      assertThat(seen).isEmpty();
    }
  }

  /** The resolver of the egress proxy in these tests: {@code svc.test} is the server on loopback. */
  private static EgressResolver svcTestIsLoopback() {
    return host -> host.equals("svc.test") ? List.of(InetAddress.getLoopbackAddress()) : List.of();
  }

  /**
   * The child JVM under bwrap with filtered egress; skipped with bwrap's reason where it cannot
   * supply it, failed instead under {@code CAPABILITY_REQUIRE_BACKENDS=1}.
   */
  private Executor filteredChildJvm() {
    ExecutionBackend bwrap = GATE.backend();
    if (!bwrap.capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
      String reason = "bwrap cannot supply FILTERED_EGRESS here: "
          + bwrap.diagnostics().getOrDefault(IsolationCapability.FILTERED_EGRESS.name(), "no reason given");
      if ("1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE))) {
        fail(reason + " (" + BackendGate.REQUIRE_VARIABLE + "=1 requires every backend)");
      }
      assumeTrue(false, reason);
    }
    return new ChildJvmExecutor("bwrap", false, List.of(bwrap), work)
        .withEgress(Optional.of(new NettyEgressGateway(svcTestIsLoopback())), Set.of("svc.test"));
  }

  /** Imports the document with its server named {@code svc.test}, which only the proxy resolves. */
  private Path importedForSvcTest() throws IOException {
    Path out = work.resolve("imported-svc");
    OpenApiImport.write(OpenApiImport.read(document().replace("127.0.0.1", "svc.test").getBytes(StandardCharsets.UTF_8), loopback()), out);
    Ownership.readableByEveryone(out);
    return out;
  }

  private String svcScope() {
    return "svc.test:" + server.getAddress().getPort();
  }

  @Test
  void runsInTheChildJvmUnderBwrapThroughTheEgressProxyToTheApprovedScope() throws IOException {
    CapabilityPackage pkg = CapabilityPackages.open(importedForSvcTest().resolve("get-note"));
    CapabilityRuntime runtime =
        CapabilityRuntime.builder().executor(filteredChildJvm()).policy(EffectPolicies.permissive(Approval::grant)).receipts(r -> {}).build();

    ExecutionReceipt receipt = runtime.run(pkg, "{\"path\":{\"noteId\":\"n1\"},\"query\":{\"q\":\"a b\"}}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.boundaryApplied()).isTrue();
    assertThat(receipt.grantedEffects()).containsExactly(Effect.of("network.connect", svcScope()));
    assertThat(receipt.usedEffects()).containsExactly(Effect.of("network.connect", svcScope()));
    assertThat(receipt.violations()).isEmpty();
    assertThat(receipt.output()).hasValue("{\"status\":200,\"body\":\"said \\\"hi\\\"\\n\"}");
    assertThat(seen).containsExactly("GET /api/notes/n1?q=a%20b trace=null cookie=null type=null body=");
  }

  @Test
  void theLargestWorstCaseBodyFitsTheChildJvmsResponse() throws IOException {
    CapabilityPackage pkg = CapabilityPackages.open(importedForSvcTest().resolve("worst"));
    CapabilityRuntime runtime =
        CapabilityRuntime.builder().executor(filteredChildJvm()).policy(EffectPolicies.permissive(Approval::grant)).receipts(r -> {}).build();

    ExecutionReceipt receipt = runtime.run(pkg, "{}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.output()).hasValueSatisfying(output -> assertThat(output).hasSize(
        "{\"status\":200,\"body\":\"\"}".length() + 6 * HttpOperationInvoker.MAX_RESPONSE_BYTES));
  }

  @Test
  void anOperationWhoseJarEmbedsAnotherPortReachesNothingButItsApprovedScope() throws IOException {
    HttpServer elsewhere = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    List<String> seenElsewhere = new ArrayList<>();
    elsewhere.createContext("/", exchange -> {
      try (exchange) {
        synchronized (seenElsewhere) {
          seenElsewhere.add(exchange.getRequestURI().getPath());
        }
        exchange.sendResponseHeaders(200, -1);
      }
    });
    elsewhere.start();
    try {
      Path operation = importedForSvcTest().resolve("get-note");
      int approvedPort = server.getAddress().getPort();
      int embeddedPort = elsewhere.getAddress().getPort();
      rebind(operation, "port=" + approvedPort, "port=" + embeddedPort);
      CapabilityPackage pkg = CapabilityPackages.open(operation);
      assertThat(pkg.descriptor().effects()).as("the manifest still declares the approved scope").containsExactly(Effect.of("network.connect", svcScope()));
      CapabilityRuntime runtime =
          CapabilityRuntime.builder().executor(filteredChildJvm()).policy(EffectPolicies.permissive(Approval::grant)).receipts(r -> {}).build();

      ExecutionReceipt receipt = runtime.run(pkg, "{\"path\":{\"noteId\":\"n1\"}}");

      assertThat(receipt.output()).as(receipt.message()).isNotEqualTo(Optional.of("{\"status\":200,\"body\":\"\"}"));
      assertThat(seenElsewhere).as("the port the jar embeds saw nothing").isEmpty();
      assertThat(seen).isEmpty();
      assertThat(receipt.usedEffects()).isEmpty();
      assertThat(receipt.violations())
          .extracting(EffectViolation::target, EffectViolation::code)
          .contains(tuple("svc.test:" + embeddedPort, EgressRefusal.NOT_GRANTED));
    } finally {
      elsewhere.stop(0);
    }
  }

  /** Rewrites the binding in the operation's module jar and the module's integrity in its manifest, as a tampered package would. */
  private static void rebind(Path operation, String from, String to) throws IOException {
    Path jar = operation.resolve("lib/http-operation.jar");
    byte[] original = Files.readAllBytes(jar);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(original));
        ZipOutputStream out = new ZipOutputStream(bytes)) {
      for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        byte[] data = in.readAllBytes();
        if (entry.getName().equals(HttpOperationInvoker.BINDING)) {
          String binding = new String(data, StandardCharsets.ISO_8859_1);
          assertThat(binding).contains(from);
          data = binding.replace(from, to).getBytes(StandardCharsets.ISO_8859_1);
        }
        out.putNextEntry(new ZipEntry(entry.getName()));
        out.write(data);
        out.closeEntry();
      }
    }
    Files.write(jar, bytes.toByteArray());
    Path manifest = operation.resolve("capability.json");
    Files.writeString(manifest, Files.readString(manifest)
        .replace(ManifestRules.integrity(original), ManifestRules.integrity(bytes.toByteArray())));
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
