package dev.capability.mcp;

import dev.capability.testing.Git;
import dev.capability.testing.Ownership;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A real layout for the server: an allowed root holding a repository, a directory outside the root
 * with a secret in it, symlinks from inside to outside, and the operator's policy beside them.
 */
final class McpTestServer {
  static final String POLICY = """
      {"version": 1, "timeoutMillis": 60000, "maxOutputBytes": 1048576, "network": "none", "projectWrites": "read-only",
       "environment": {"inherit": ["PATH"]},
       "executables": {"cat": {"name": "cat", "arguments": {"operands": {"kind": "path", "minCount": 1}, "doubleDash": "optional"}}}}
      """;

  final Path root;
  final Path repository;
  final Path outside;
  final Path policy;

  McpTestServer(Path base) throws IOException {
    root = Files.createDirectories(base.resolve("root"));
    repository = Files.createDirectories(root.resolve("repo"));
    Files.writeString(repository.resolve("a.txt"), "alpha needle\nbeta\n");
    Files.createDirectories(repository.resolve("src"));
    Files.writeString(repository.resolve("src/Main.java"), "class Main { /* needle */ }\n");
    Git.git(repository, "init", "-q");
    Git.git(repository, "config", "remote.origin.url", "https://token@example.com/needle");
    outside = Files.createDirectories(base.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "secret needle\n");
    Files.createSymbolicLink(root.resolve("link-out"), outside);
    Files.createSymbolicLink(repository.resolve("escape.txt"), outside.resolve("secret.txt"));
    // The sandbox runs as another uid when the tests run as root: it must be able to reach the repository.
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    Ownership.readableByEveryone(root);
    policy = base.resolve("policy.json");
    Files.writeString(policy, POLICY);
  }

  McpServerConfig config() {
    return new McpServerConfig(List.of(root), policy, null, Set.of(), Map.of("PATH", System.getenv("PATH")), new SqliteEvidence());
  }

  static McpSyncClient client(URI endpoint) {
    String base = endpoint.getScheme() + "://" + endpoint.getRawAuthority();
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base)
        .endpoint(CapabilityMcpServer.ENDPOINT).jsonMapper(McpJson.mapper()).build();
    McpSyncClient client = McpClient.sync(transport).jsonSchemaValidator(McpJson.schemaValidator())
        .requestTimeout(Duration.ofMinutes(2)).build();
    client.initialize();
    return client;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> call(McpSyncClient client, String tool, Map<String, Object> arguments) {
    McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
    return (Map<String, Object>) result.structuredContent();
  }

  static boolean isError(McpSyncClient client, String tool, Map<String, Object> arguments) {
    return Boolean.TRUE.equals(client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build()).isError());
  }

  /** Every path under the base with its content, to show that an attack changed nothing. */
  static Map<String, String> snapshot(Path base) {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> all = Files.walk(base)) {
      all.forEach(path -> {
        try {
          files.put(base.relativize(path).toString(),
              Files.isSymbolicLink(path) ? "-> " + Files.readSymbolicLink(path)
                  : Files.isRegularFile(path) ? new String(Files.readAllBytes(path), StandardCharsets.UTF_8) : "dir");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }
}
