package dev.capability.bench;

import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.mcp.CapabilityMcpServer;
import dev.capability.mcp.HttpEndpoint;
import dev.capability.mcp.HttpSettings;
import dev.capability.mcp.McpJson;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A {@code check_command} round trip through the MCP server, over stdio (a child JVM) and over
 * streamable HTTP on loopback, against {@code CommandKernel.check} in process with the same policy
 * and command, in the same run. The MCP calls also read and check the policy file and build a kernel
 * per call, as the server does (parsing is reused while the file's text is unchanged, and an
 * executable's digest while its identity is); neither side records evidence.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class McpBenchmark {
  private static final List<String> ARGV = List.of("git", "status", "--short");

  private Path directory;
  private Path repository;
  private CommandKernel kernel;
  private ExecutionRequest request;
  private CapabilityMcpServer server;
  private HttpEndpoint http;
  private McpSyncClient httpClient;
  private McpSyncClient stdioClient;
  private McpSchema.CallToolRequest call;
  private McpSchema.CallToolRequest parse;
  private PlainHttpClient plain;

  @Setup
  public void setUp() throws IOException {
    directory = Files.createTempDirectory("mcp-bench");
    Path policy = directory.resolve("policy.json");
    try (InputStream in = McpBenchmark.class.getResourceAsStream("/readonly-dev.json")) {
      Files.write(policy, in.readAllBytes());
    }
    Path root = Files.createDirectories(directory.resolve("root"));
    repository = Files.createDirectories(root.resolve("repo")).toRealPath();
    kernel = CommandKernel.builder(ExecutionPolicies.load(policy, repository)).build();
    request = ExecutionRequest.argv(ARGV).repository(repository).build();
    call = McpSchema.CallToolRequest.builder("check_command").arguments(Map.of("repository", repository.toString(), "argv", ARGV)).build();

    parse = McpSchema.CallToolRequest.builder("parse_command").arguments(Map.of("command", "git status --short")).build();
    server = CapabilityMcpServer.create(McpStdioServer.config(policy, root));
    http = server.startHttp(HttpSettings.loopback(0));
    httpClient = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + http.uri().getPort())
            .endpoint(CapabilityMcpServer.ENDPOINT).jsonMapper(McpJson.mapper()).build())
        .jsonSchemaValidator(McpJson.schemaValidator()).requestTimeout(Duration.ofMinutes(1)).build();
    httpClient.initialize();

    ServerParameters child = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
        .args("-cp", System.getProperty("java.class.path"), McpStdioServer.class.getName(), policy.toString(), root.toString())
        .env(Map.of("PATH", System.getenv("PATH")))
        .build();
    plain = PlainHttpClient.connect(URI.create("http://127.0.0.1:" + http.uri().getPort() + CapabilityMcpServer.ENDPOINT));
    stdioClient = McpClient.sync(new StdioClientTransport(child, McpJson.mapper()))
        .jsonSchemaValidator(McpJson.schemaValidator()).requestTimeout(Duration.ofMinutes(1)).build();
    stdioClient.initialize();
  }

  @TearDown
  public void tearDown() throws IOException {
    stdioClient.closeGracefully();
    httpClient.closeGracefully();
    http.close();
    server.close();
    kernel.close();
    try (var paths = Files.walk(directory)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Benchmark
  public Object inProcessCheck() {
    return kernel.check(request);
  }

  @Benchmark
  public Object httpCheck() {
    return httpClient.callTool(call);
  }

  @Benchmark
  public Object httpParse() {
    return httpClient.callTool(parse);
  }

  @Benchmark
  public Object stdioParse() {
    return stdioClient.callTool(parse);
  }

  @Benchmark
  public Object plainHttpCheck() throws IOException, InterruptedException {
    return plain.callTool("check_command", Map.of("repository", repository.toString(), "argv", ARGV));
  }

  @Benchmark
  public Object plainHttpParse() throws IOException, InterruptedException {
    return plain.callTool("parse_command", Map.of("command", "git status --short"));
  }

  @Benchmark
  public Object stdioCheck() {
    return stdioClient.callTool(call);
  }
}
