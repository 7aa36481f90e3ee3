package dev.capability.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The least an MCP client over streamable HTTP does for one tool call, for {@link McpBenchmark}:
 * one JSON-RPC POST on a kept-alive JDK {@code HttpClient} connection, the session header, the
 * whole event-stream answer read as text. It stands for the non-Java clients agents use (it
 * validates nothing), so that the server's cost shows apart from the SDK's Java client.
 */
final class PlainHttpClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI endpoint;
  private final String session;
  private final AtomicLong ids = new AtomicLong(1);

  private PlainHttpClient(URI endpoint, String session) {
    this.endpoint = endpoint;
    this.session = session;
  }

  /** Initializes a session with the server at {@code endpoint}. */
  static PlainHttpClient connect(URI endpoint) throws IOException {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    Map<String, Object> initialize = Map.of("jsonrpc", "2.0", "id", 0, "method", "initialize", "params",
        Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(), "clientInfo", Map.of("name", "bench", "version", "1")));
    try {
      HttpResponse<String> answer = client.send(post(endpoint, null, initialize), HttpResponse.BodyHandlers.ofString());
      String session = answer.headers().firstValue("Mcp-Session-Id")
          .orElseThrow(() -> new IOException("the server gave no session: " + answer.statusCode() + " " + answer.body()));
      PlainHttpClient plain = new PlainHttpClient(endpoint, session);
      plain.client.send(post(endpoint, session, Map.of("jsonrpc", "2.0", "method", "notifications/initialized")),
          HttpResponse.BodyHandlers.discarding());
      return plain;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while initializing", e);
    }
  }

  /** Calls {@code tool} and returns the event stream's text, which holds the result. */
  String callTool(String tool, Map<String, Object> arguments) throws IOException, InterruptedException {
    Map<String, Object> call = new LinkedHashMap<>();
    call.put("jsonrpc", "2.0");
    call.put("id", ids.incrementAndGet());
    call.put("method", "tools/call");
    call.put("params", Map.of("name", tool, "arguments", arguments));
    HttpResponse<String> answer = client.send(post(endpoint, session, call), HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200 || !answer.body().contains("\"result\"")) {
      throw new IOException("the call failed: " + answer.statusCode() + " " + answer.body());
    }
    return answer.body();
  }

  private static HttpRequest post(URI endpoint, String session, Map<String, Object> message) throws IOException {
    HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2025-06-18")
        .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    return request.build();
  }
}
