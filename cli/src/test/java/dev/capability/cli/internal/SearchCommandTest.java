package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SearchCommandTest {
  private HttpServer server;
  private String base;

  @BeforeEach
  void start() throws IOException {
    Map<String, String> documents = Map.of(
        "/a", """
            {"format":"capability-index/1",
             "entries":[{"coordinates":"org.example:notes:1.0.0","name":"notes","description":"Keeps notes",
                         "effects":{"filesystem.write":["notes"]},"claims":{"verified":true,"audited":"2026","reviewed":"yes","license":"MIT","tested":"ci","origin":"example"}}],
             "links":["/b"]}""",
        "/b", """
            {"format":"capability-index/1",
             "entries":[{"coordinates":"org.example:mailer:2.0.0","name":"mailer","description":"Sends notes by mail"}],
             "links":["/a"]}""");
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        String body = documents.get(exchange.getRequestURI().getPath());
        if (body == null) {
          exchange.sendResponseHeaders(404, -1);
          return;
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    });
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void searchesAFederationAndPrintsHitsWithTheirPathAsJson() throws IOException {
    CliRunner.Outcome outcome = CliRunner.run("search", "notes", "--index", base + "/a", "--allow-http", "--allow-loopback", "--json");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    JsonNode view = new ObjectMapper().readTree(outcome.out());
    assertThat(view.get("hits")).hasSize(2);
    assertThat(view.at("/hits/0/name").asText()).isEqualTo("notes");
    assertThat(view.at("/hits/0/claims/verified").asText()).isEqualTo("true");
    assertThat(view.at("/hits/1/path").toString()).isEqualTo("[\"" + base + "/a\",\"" + base + "/b\"]");
    assertThat(view.at("/problems/0/code").asText()).isEqualTo("INDEX_CYCLE");
    assertThat(view.get("stop").asText()).isEqualTo("INDEX_COMPLETE");
  }

  @Test
  void claimsArePrintedInOneOrderEveryRun() throws IOException {
    CliRunner.Outcome outcome = CliRunner.run("search", "notes", "--index", base + "/a", "--allow-http", "--allow-loopback", "--json");

    JsonNode claims = new ObjectMapper().readTree(outcome.out()).at("/hits/0/claims");
    assertThat(claims.fieldNames()).toIterable().containsExactly("audited", "license", "origin", "reviewed", "tested", "verified");
  }

  @Test
  void plainOutputListsHitsAndReportsProblemsOnStandardError() {
    CliRunner.Outcome outcome = CliRunner.run("search", "mail", "--index", base + "/a", "--allow-http", "--allow-loopback");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out()).contains("mailer  org.example:mailer:2.0.0").doesNotContain("notes  ");
    assertThat(outcome.err()).contains("INDEX_CYCLE").contains("1 hits from 2 indexes; INDEX_COMPLETE");
  }

  @Test
  void loopbackWithoutTheAllowanceReadsNothingAndExitsThree() {
    CliRunner.Outcome outcome = CliRunner.run("search", "notes", "--index", base + "/a", "--allow-http", "--json");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.out()).contains("INDEX_ADDRESS_REFUSED").contains("\"hits\":[]");
  }

  @Test
  void anIndexIsRequired() {
    assertThat(CliRunner.run("search", "notes").exitCode()).isEqualTo(ExitCodes.USAGE);
  }
}
