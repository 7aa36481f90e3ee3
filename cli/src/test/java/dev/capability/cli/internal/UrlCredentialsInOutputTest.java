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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials in URLs, given on the command line or found in remote data, never reach stdout,
 * stderr or {@code --json}, while the messages still name the host. Every case runs the real
 * command against a real loopback HTTP server, or on a real document.
 */
class UrlCredentialsInOutputTest {
  private static final String SECRET = "s3cret";

  @TempDir Path work;
  private HttpServer server;
  private String hostPort;
  private final Map<String, String> bodies = new ConcurrentHashMap<>();
  private final Map<String, String> redirects = new ConcurrentHashMap<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        String target = exchange.getRequestURI().getRawPath()
            + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
        requests.add(target);
        String location = redirects.get(exchange.getRequestURI().getRawPath());
        if (location != null) {
          exchange.getResponseHeaders().add("Location", location);
          exchange.sendResponseHeaders(302, -1);
          return;
        }
        String body = bodies.get(exchange.getRequestURI().getRawPath());
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
    hostPort = "127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  // acquire

  @Test
  void aRepositoryWithUserInformationIsRefusedWithoutRepeatingThePassword() {
    String repository = "http://user:" + SECRET + "@" + hostPort + "/maven/";

    CliRunner.Outcome plain = acquire("com.example:hello:1.0.0@zip", repository);
    CliRunner.Outcome json = acquire("com.example:hello:1.0.0@zip", repository, "--json");

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(plain.err()).contains("SOURCE_INVALID").contains("http://redacted@" + hostPort + "/maven/");
    assertThat(error(json).path("code").asText()).isEqualTo("SOURCE_INVALID");
    assertThat(error(json).path("message").asText()).contains(hostPort);
    assertHidden(plain, json);
    assertThat(requests).as("nothing is fetched from a repository carrying credentials").isEmpty();
  }

  @Test
  void aRedirectToALocationWithCredentialsIsRefusedWithoutRepeatingThem() {
    redirects.put("/maven/com/example/hello/1.0.0/hello-1.0.0.zip",
        "https://mirror:" + SECRET + "@mirror.example/hello-1.0.0.zip?X-Amz-Signature=" + SECRET + "&X-Amz-Expires=60");

    CliRunner.Outcome plain = acquire("com.example:hello:1.0.0@zip", "http://" + hostPort + "/maven/");
    CliRunner.Outcome json = acquire("com.example:hello:1.0.0@zip", "http://" + hostPort + "/maven/", "--json");

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(plain.err()).contains("SOURCE_REDIRECT").contains(hostPort)
        .contains("https://redacted@mirror.example/hello-1.0.0.zip?X-Amz-Signature=redacted&X-Amz-Expires=60");
    assertThat(error(json).path("code").asText()).isEqualTo("SOURCE_REDIRECT");
    assertHidden(plain, json);
  }

  @Test
  void anNpmTarballSignedInItsQueryIsNamedWithoutItsSignature() {
    bodies.put("/npm/hello-cap/1.0.0", "{\"name\":\"hello-cap\",\"version\":\"1.0.0\",\"dist\":{\"tarball\":\"http://" + hostPort
        + "/npm/hello-cap/-/hello-cap-1.0.0.tgz?token=" + SECRET + "\",\"integrity\":\"sha512-AAAA\"}}");

    CliRunner.Outcome plain = acquire("npm:hello-cap@1.0.0", "http://" + hostPort + "/npm/");
    CliRunner.Outcome json = acquire("npm:hello-cap@1.0.0", "http://" + hostPort + "/npm/", "--json");

    assertThat(requests).as("the tarball was asked for, with its token").contains("/npm/hello-cap/-/hello-cap-1.0.0.tgz?token=" + SECRET);
    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(plain.err()).contains("ARTIFACT_NOT_FOUND").contains("http://" + hostPort + "/npm/hello-cap/-/hello-cap-1.0.0.tgz?token=redacted");
    assertThat(error(json).path("code").asText()).isEqualTo("ARTIFACT_NOT_FOUND");
    assertHidden(plain, json);
  }

  @Test
  void anNpmTarballWithUserInformationIsRefusedWithoutRepeatingIt() {
    bodies.put("/npm/hello-cap/1.0.0", "{\"name\":\"hello-cap\",\"version\":\"1.0.0\",\"dist\":{\"tarball\":\"http://npm:" + SECRET + "@"
        + hostPort + "/npm/hello-cap/-/hello-cap-1.0.0.tgz\"}}");

    CliRunner.Outcome plain = acquire("npm:hello-cap@1.0.0", "http://" + hostPort + "/npm/");
    CliRunner.Outcome json = acquire("npm:hello-cap@1.0.0", "http://" + hostPort + "/npm/", "--json");

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(plain.err()).contains("NPM_TARBALL_ORIGIN").contains("http://redacted@" + hostPort + "/npm/hello-cap/-/hello-cap-1.0.0.tgz");
    assertThat(error(json).path("code").asText()).isEqualTo("NPM_TARBALL_ORIGIN");
    assertHidden(plain, json);
  }

  @Test
  void aRepositoryThatIsNoUrlIsRefusedWithoutRepeatingThePassword() {
    CliRunner.Outcome plain = acquire("com.example:hello:1.0.0@zip", "http://user:" + SECRET + " x@" + hostPort + "/maven/");
    CliRunner.Outcome json = acquire("com.example:hello:1.0.0@zip", "http://user:" + SECRET + " x@" + hostPort + "/maven/", "--json");

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(plain.err()).contains("--repository 'http://redacted@" + hostPort + "/maven/' is not a URL");
    assertThat(error(json).path("message").asText()).contains(hostPort);
    assertHidden(plain, json);
  }

  @Test
  void anArgumentTheCommandLineCannotPlaceIsRepeatedWithoutItsPassword() {
    CliRunner.Outcome outcome = CliRunner.run("acquire", "com.example:hello:1.0.0@zip", "http://user:" + SECRET + "@" + hostPort + "/maven/");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(outcome.err()).contains("http://redacted@" + hostPort + "/maven/");
    assertHidden(outcome);
  }

  // import-openapi

  @Test
  void aServerWithUserInformationIsRefusedWithoutRepeatingThePassword() throws IOException {
    CliRunner.Outcome plain = importOpenApi(document("\"https://user:" + SECRET + "@api.example.com/v1\""));
    CliRunner.Outcome json = importOpenApi(document("\"https://user:" + SECRET + "@api.example.com/v1\""), "--json");

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(plain.err()).contains("OPENAPI_SERVER_INVALID").contains("https://redacted@api.example.com/v1").contains("carries user information");
    assertThat(error(json).path("code").asText()).isEqualTo("OPENAPI_SERVER_INVALID");
    assertHidden(plain, json);
  }

  @Test
  void aServerWithAKeyInItsQueryIsRefusedWithoutRepeatingTheKey() throws IOException {
    CliRunner.Outcome plain = importOpenApi(document("\"https://api.example.com/v1?api_key=" + SECRET + "\""));
    CliRunner.Outcome json = importOpenApi(document("\"https://api.example.com/v1?api_key=" + SECRET + "\""), "--json");

    assertThat(plain.err()).contains("OPENAPI_SERVER_INVALID").contains("https://api.example.com/v1?api_key=redacted");
    assertHidden(plain, json);
  }

  @Test
  void theListOfServersToChooseFromIsPrintedWithoutCredentials() throws IOException {
    Path document = document("\"https://api.example.com/v1\", \"https://user:" + SECRET + "@backup.example.com/v1\"");

    CliRunner.Outcome unchosen = importOpenApi(document);
    CliRunner.Outcome json = importOpenApi(document, "--json");

    assertThat(unchosen.err()).contains("lists 2 servers").contains("backup.example.com").contains("https://redacted@backup.example.com/v1");
    assertHidden(unchosen, json);
  }

  @Test
  void aChosenServerWithCredentialsIsNamedWithoutThem() throws IOException {
    Path document = document("\"https://api.example.com/v1\", \"https://backup.example.com/v1\"");

    CliRunner.Outcome plain = importOpenApi(document, "--server", "https://user:" + SECRET + "@api.example.com/v1");
    CliRunner.Outcome json = importOpenApi(document, "--server", "https://user:" + SECRET + "@api.example.com/v1", "--json");

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(plain.err()).contains("does not list the chosen server 'https://redacted@api.example.com/v1'");
    assertHidden(plain, json);
  }

  // search

  @Test
  void anIndexWithUserInformationIsReportedWithoutThePassword() throws IOException {
    String index = "http://user:" + SECRET + "@" + hostPort + "/a";

    CliRunner.Outcome plain = CliRunner.run("search", "notes", "--index", index, "--allow-http", "--allow-loopback");
    CliRunner.Outcome json = CliRunner.run("search", "notes", "--index", index, "--allow-http", "--allow-loopback", "--json");

    assertThat(plain.err()).contains("INDEX_URL_INVALID").contains("redacted@" + hostPort);
    JsonNode view = new ObjectMapper().readTree(json.out());
    assertThat(view.at("/problems/0/index").asText()).isEqualTo("http://redacted@" + hostPort + "/a");
    assertHidden(plain, json);
    assertThat(requests).isEmpty();
  }

  @Test
  void linksCarryingTokensAreFollowedButPrintedWithoutThem() throws IOException {
    bodies.put("/a", "{\"format\":\"capability-index/1\",\"entries\":[],\"links\":[\"/b?access_token=" + SECRET + "\",\"/gone?token=" + SECRET + "\"]}");
    bodies.put("/b", "{\"format\":\"capability-index/1\",\"entries\":[{\"coordinates\":\"org.example:notes:1.0.0\",\"name\":\"notes\","
        + "\"description\":\"Keeps notes\"}],\"links\":[]}");

    CliRunner.Outcome plain = CliRunner.run("search", "notes", "--index", "http://" + hostPort + "/a", "--allow-http", "--allow-loopback");
    CliRunner.Outcome json = CliRunner.run("search", "notes", "--index", "http://" + hostPort + "/a", "--allow-http", "--allow-loopback", "--json");

    assertThat(requests).contains("/b?access_token=" + SECRET, "/gone?token=" + SECRET);
    assertThat(plain.out()).contains("from http://" + hostPort + "/b?access_token=redacted");
    assertThat(plain.err()).contains("http://" + hostPort + "/gone?token=redacted");
    JsonNode view = new ObjectMapper().readTree(json.out());
    assertThat(view.at("/hits/0/index").asText()).isEqualTo("http://" + hostPort + "/b?access_token=redacted");
    assertThat(view.at("/hits/0/path/1").asText()).isEqualTo("http://" + hostPort + "/b?access_token=redacted");
    assertThat(view.get("visited").toString()).contains("http://" + hostPort + "/b?access_token=redacted");
    assertThat(view.at("/problems/0/index").asText()).isEqualTo("http://" + hostPort + "/gone?token=redacted");
    assertHidden(plain, json);
  }

  @Test
  void anIndexThatIsNoUrlIsRefusedWithoutRepeatingThePassword() {
    CliRunner.Outcome outcome = CliRunner.run("search", "notes", "--index", "http://user:" + SECRET + " x@" + hostPort + "/a");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(outcome.err()).contains("--index 'http://redacted@" + hostPort + "/a' is not a URL");
    assertHidden(outcome);
  }

  private CliRunner.Outcome acquire(String coordinates, String repository, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("acquire", coordinates, "--repository", repository, "--allow-http-loopback",
        "--store", work.resolve("store").toString(), "--repo", work.toString()));
    args.addAll(List.of(extra));
    return CliRunner.run(args.toArray(String[]::new));
  }

  private CliRunner.Outcome importOpenApi(Path document, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("import-openapi", document.toString()));
    args.addAll(List.of(extra));
    return CliRunner.run(args.toArray(String[]::new));
  }

  private Path document(String servers) throws IOException {
    StringBuilder list = new StringBuilder();
    for (String url : servers.split(", ")) {
      list.append(list.length() == 0 ? "" : ",").append("{\"url\": ").append(url).append('}');
    }
    return Files.writeString(work.resolve("openapi.json"), "{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"Notes\", \"version\": \"1.0.0\"},"
        + " \"servers\": [" + list + "], \"paths\": {\"/notes\": {\"get\": {\"operationId\": \"listNotes\"}}}}");
  }

  private static JsonNode error(CliRunner.Outcome json) {
    try {
      return new ObjectMapper().readTree(json.out()).path("error");
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + json.out(), e);
    }
  }

  private static void assertHidden(CliRunner.Outcome... outcomes) {
    for (CliRunner.Outcome outcome : outcomes) {
      assertThat(outcome.out()).doesNotContain(SECRET);
      assertThat(outcome.err()).doesNotContain(SECRET);
    }
  }
}
