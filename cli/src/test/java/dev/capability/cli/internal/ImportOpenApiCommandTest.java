package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
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
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportOpenApiCommandTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String DOCUMENT = """
      {"openapi": "3.1.0", "info": {"title": "Notes", "version": "1.0.0"},
       "servers": [{"url": "https://notes.example.com/api"}],
       "paths": {"/notes": {"post": {"operationId": "addNote",
          "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "properties": {"text": {"type": "string"}}}}}}}}}}
      """;

  @Test
  void writesOneCompletePackagePerOperationThatInspectAccepts(@TempDir Path temp) throws IOException {
    Path file = Files.writeString(temp.resolve("openapi.json"), DOCUMENT);
    Path out = temp.resolve("out");

    CliRunner.Outcome outcome = CliRunner.run("import-openapi", file.toString(), "--out", out.toString(), "--json");

    assertThat(outcome.exitCode()).as(outcome.err() + outcome.out()).isZero();
    assertThat(outcome.out()).contains("\"name\":\"add-note\"").contains("network.connect(notes.example.com:443)");
    assertThat(Files.readString(out.resolve("add-note/capability.json"))).contains("\"network.connect\"");
    CliRunner.Outcome inspect = CliRunner.run("inspect", out.resolve("add-note").toString(), "--json");
    assertThat(inspect.exitCode()).as(inspect.err() + inspect.out()).isZero();
    assertThat(inspect.out()).contains("network.connect").contains("HttpOperationInvoker");
  }

  @Test
  void anImportedOperationRunsInTheSandboxOnlyWithTheApprovedConnection(@TempDir Path temp) throws IOException {
    BWRAP.backend();
    List<String> seen = new ArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        synchronized (seen) {
          seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath() + " " + body);
        }
        byte[] response = "{\"id\":7}".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(201, response.length);
        exchange.getResponseBody().write(response);
      }
    });
    server.start();
    try {
      // A name, not a literal: the egress proxy never connects to a loopback literal, and lets a
      // granted name reach loopback only when the operator allows it (--allow-private-address).
      String hostPort = "localhost:" + server.getAddress().getPort();
      // The sandbox runs as nobody: the package must be readable by it.
      Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path file = Files.writeString(temp.resolve("openapi.json"), DOCUMENT.replace("https://notes.example.com", "http://" + hostPort));
      Path out = temp.resolve("out");
      assertThat(CliRunner.run("import-openapi", file.toString(), "--out", out.toString(), "--allow-http", "--allow-loopback").exitCode()).isZero();
      Ownership.readableByEveryone(out);
      String pkg = out.resolve("add-note").toString();
      String input = "{\"body\":{\"text\":\"hi\"}}";

      CliRunner.Outcome refused = CliRunner.run("run", pkg, "--backend", "bwrap", "--input", input, "--policy", "permissive", "--repo", temp.toString(), "--no-ledger", "--json");
      assertThat(refused.exitCode()).as(refused.err() + refused.out()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
      assertThat(refused.err() + refused.out()).containsPattern("APPROVAL_[A-Z_]+|POLICY_[A-Z_]+");
      assertThat(seen).isEmpty();

      // Bubblewrap by name: the server listens on the host's loopback, which a Docker container
      // (the rule's choice where Docker runs) never reaches, by design.
      CliRunner.Outcome unlisted = CliRunner.run("run", pkg, "--backend", "bwrap", "--input", input, "--policy", "permissive",
          "--approve", "network.connect=" + hostPort, "--repo", temp.toString(), "--no-ledger", "--json");
      assertThat(unlisted.exitCode()).as(unlisted.err() + unlisted.out()).isZero();
      assertThat(unlisted.out()).as("refused at the proxy: localhost is a loopback address")
          .contains("\"violations\":[{\"kind\":\"network.connect\",\"target\":\"" + hostPort + "\",\"code\":\"EGRESS_FORBIDDEN_ADDRESS\"");
      assertThat(seen).isEmpty();
      CliRunner.Outcome plain = CliRunner.run("run", pkg, "--backend", "bwrap", "--input", input, "--policy", "permissive",
          "--approve", "network.connect=" + hostPort, "--repo", temp.toString(), "--no-ledger");
      assertThat(plain.out()).as(plain.err()).contains("  refused (attempts beyond the grants the boundary stopped):\n"
          + "    network.connect " + hostPort + " EGRESS_FORBIDDEN_ADDRESS: ");
      assertThat(seen).isEmpty();

      CliRunner.Outcome ran = CliRunner.run("run", pkg, "--backend", "bwrap", "--input", input, "--policy", "permissive",
          "--approve", "network.connect=" + hostPort, "--allow-private-address", "localhost", "--repo", temp.toString(), "--no-ledger", "--json");
      assertThat(ran.exitCode()).as(ran.err() + ran.out()).isZero();
      assertThat(ran.out()).contains("\"status\":\"SUCCEEDED\"").contains("\"boundaryApplied\":true").contains("{\\\"status\\\":201")
          .contains("\"usedEffects\":[{\"kind\":\"network.connect\",\"scope\":\"" + hostPort + "\"}]").contains("\"violations\":[]");
      assertThat(seen).containsExactly("POST /api/notes {\"text\":\"hi\"}");
    } finally {
      server.stop(0);
    }
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void aLoopbackServerIsRefusedWithExitThree(@TempDir Path temp) throws IOException {
    Path file = Files.writeString(temp.resolve("openapi.json"), DOCUMENT.replace("https://notes.example.com/api", "https://127.0.0.1:8443"));

    CliRunner.Outcome outcome = CliRunner.run("import-openapi", file.toString(), "--json");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.out()).contains("OPENAPI_SERVER_REFUSED");
    assertThat(CliRunner.run("import-openapi", file.toString(), "--allow-loopback").exitCode()).isZero();
  }
}
