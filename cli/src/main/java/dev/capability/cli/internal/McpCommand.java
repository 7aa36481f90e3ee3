package dev.capability.cli.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.mcp.CapabilityMcpServer;
import dev.capability.mcp.HttpEndpoint;
import dev.capability.mcp.HttpSettings;
import dev.capability.mcp.McpCodes;
import dev.capability.mcp.McpServerConfig;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code capability mcp}: the kernel's tools for coding agents over the Model Context Protocol,
 * on stdio (the default) or streamable HTTP (docs/mcp.md). Everything it serves under comes from
 * the operator's command line, environment and files; the whole configuration is checked before
 * the server reads a request or listens.
 */
@Command(name = "mcp", description = "Serve the kernel's tools to coding agents over MCP: stdio by default, streamable HTTP with --http.")
final class McpCommand implements Callable<Integer> {
  /** The allowed roots, separated by the path separator (':'). */
  static final String ROOTS_ENV = "CAPABILITY_ALLOWED_ROOTS";

  /** The bearer token of the HTTP transport. */
  static final String TOKEN_ENV = "CAPABILITY_MCP_TOKEN";

  private final Console console;

  @Option(names = "--policy", paramLabel = "FILE",
      description = "The operator policy (JSON). Default: the file named by " + KernelOptions.POLICY_ENV
          + ", else $${XDG_CONFIG_HOME:-~/.config}/capability/policy.json.")
  Path policy;

  @Option(names = "--allowed-root", paramLabel = "DIR",
      description = "A directory the tools may touch (repeatable); default " + ROOTS_ENV + ". Required with --http; stdio defaults to the working directory.")
  List<Path> allowedRoots = new ArrayList<>();

  @Option(names = "--effect-policy", paramLabel = "FILE", description = "The effect policy capability runs are decided under (default: approvals only by --pre-approve).")
  Path effectPolicy;

  @Option(names = "--pre-approve", paramLabel = "FINGERPRINT",
      description = "A capability plan fingerprint (from 'capability plan') that run_capability may run although it needs an approval (repeatable).")
  List<String> preApproved = new ArrayList<>();

  @Option(names = "--http", description = "Serve streamable HTTP instead of stdio.")
  boolean http;

  @Option(names = "--bind", paramLabel = "ADDRESS", description = "The address to listen on (default 127.0.0.1). Not loopback: needs a token.")
  String bind = "127.0.0.1";

  @Option(names = "--port", paramLabel = "PORT", description = "The port (default 8765; 0 for any free port, printed on stderr).")
  int port = 8765;

  @Option(names = "--allowed-host", paramLabel = "HOST", description = "A host name the Host header may carry (repeatable); required with a wildcard --bind.")
  List<String> allowedHosts = new ArrayList<>();

  @Option(names = "--allowed-origin", paramLabel = "ORIGIN", description = "A browser origin (scheme://host:port) allowed besides the server's own (repeatable).")
  List<String> allowedOrigins = new ArrayList<>();

  @Option(names = "--token-file", paramLabel = "FILE", description = "The bearer token, in a file only its owner may read (or " + TOKEN_ENV + ").")
  Path tokenFile;

  @Option(names = "--max-request-bytes", paramLabel = "BYTES", description = "The largest request body (default 1048576).")
  int maxRequestBytes = 1 << 20;

  @Option(names = "--max-concurrent", paramLabel = "N", description = "How many requests may be in flight (default 8).")
  int maxConcurrent = 8;

  @Option(names = "--request-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "The longest one request, and a command it runs, may take (default 10m).")
  Duration requestTimeout = Duration.ofMinutes(10);

  @Option(names = "--acceptance-command", paramLabel = "COMMAND",
      description = "An acceptance command the operator configures for HTTP (repeatable): split without a shell and allowed by an exact argument list of the policy in every allowed root, or the server does not start.")
  List<String> acceptanceCommands = new ArrayList<>();

  McpCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() throws InterruptedException {
    McpServerConfig config = new McpServerConfig(roots(), PolicyLocation.resolve(Optional.ofNullable(policy), console.environment()).file(),
        effectPolicy, new HashSet<>(preApproved), console.environment(), new LedgerEvidence());
    if (!http && !acceptanceCommands.isEmpty()) {
      throw new CapabilityException(CliCodes.USAGE, "--acceptance-command configures the HTTP server; it needs --http");
    }
    // The HTTP settings are checked before the server probes its backends, so a bad one fails at once.
    HttpSettings settings = http
        ? new HttpSettings(bind, port, allowedHosts, allowedOrigins, token(), maxRequestBytes, maxConcurrent, requestTimeout)
        : null;
    try (CapabilityMcpServer server = CapabilityMcpServer.create(config)) {
      if (settings == null) {
        server.serveStdio(console.protocolIn(), console.protocolOut());
        return ExitCodes.OK;
      }
      try (HttpEndpoint endpoint = server.startHttp(settings, acceptanceCommands)) {
        console.progress(false).accept("serving MCP at " + endpoint.uri() + " for " + config.allowedRoots());
        endpoint.join();
      }
    }
    return ExitCodes.OK;
  }

  private List<Path> roots() {
    if (!allowedRoots.isEmpty()) {
      return allowedRoots;
    }
    String fromEnvironment = console.environment().get(ROOTS_ENV);
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return List.of(fromEnvironment.split(File.pathSeparator, -1)).stream().filter(root -> !root.isEmpty()).map(Path::of).toList();
    }
    // Over stdio the client started the server in the project it works on; over HTTP nothing is implied.
    return http ? List.of() : List.of(Path.of("").toAbsolutePath());
  }

  private Optional<String> token() {
    String fromEnvironment = console.environment().get(TOKEN_ENV);
    if (tokenFile != null && fromEnvironment != null) {
      throw new CapabilityException(McpCodes.CONFIG_INVALID, "give the bearer token either in " + TOKEN_ENV + " or with --token-file, not both");
    }
    if (tokenFile != null) {
      return Optional.of(HttpSettings.readTokenFile(tokenFile));
    }
    return Optional.ofNullable(fromEnvironment).map(String::strip);
  }
}
