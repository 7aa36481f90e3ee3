package dev.capability.mcp;

import dev.capability.capability.runtime.EffectPolicies;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.plugin.Plugins;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.mcp.internal.AcceptanceCommands;
import dev.capability.mcp.internal.HttpGate;
import dev.capability.mcp.internal.Tools;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;

/**
 * The kernel as an MCP server (docs/mcp.md). Made from the operator's {@link McpServerConfig}, which
 * is checked whole first (the allowed roots exist, the execution and effect policies load), so a bad
 * configuration stops the server before it serves anything:
 *
 * <pre>{@code
 * try (CapabilityMcpServer server = CapabilityMcpServer.create(config)) {
 *   server.serveStdio(System.in, System.out);          // until the client closes stdin
 * }
 * try (CapabilityMcpServer server = CapabilityMcpServer.create(config);
 *     HttpEndpoint http = server.startHttp(HttpSettings.loopback(0))) {
 *   http.join();
 * }
 * }</pre>
 */
public final class CapabilityMcpServer implements AutoCloseable {
  /** The path of the streamable HTTP endpoint. */
  public static final String ENDPOINT = "/mcp";

  private final McpServerConfig config;
  private final List<ExecutionBackend> backends;

  private CapabilityMcpServer(McpServerConfig config, List<ExecutionBackend> backends) {
    this.config = config;
    this.backends = backends;
  }

  /**
   * @throws CapabilityException {@link McpCodes#CONFIG_INVALID} when the execution policy or the
   *     effect policy does not load, naming the file and the code underneath
   */
  public static CapabilityMcpServer create(McpServerConfig config) {
    try {
      ExecutionPolicies.load(config.policyFile(), null);
      if (config.effectPolicyFile() != null) {
        EffectPolicies.load(config.effectPolicyFile());
      }
    } catch (CapabilityException e) {
      throw new CapabilityException(McpCodes.CONFIG_INVALID, "the server configuration does not load: " + e.code() + ": " + e.getMessage(), e);
    }
    return new CapabilityMcpServer(config, availableBackends());
  }

  /**
   * The backends on the class path that can run here, probed and created once: probing (a Docker
   * daemon's version, a trial sandbox) costs seconds, which every tool call would pay again with a
   * kernel that discovered its own. One that becomes unavailable later fails its launches closed.
   */
  private static List<ExecutionBackend> availableBackends() {
    List<ExecutionBackend> backends = new ArrayList<>();
    for (BackendProvider provider : Plugins.load(BackendProvider.class, BackendProvider::id, CapabilityMcpServer.class.getClassLoader()).values()) {
      if (!provider.probe().available()) {
        continue;
      }
      try {
        backends.add(provider.create(BackendConfig.defaults()));
      } catch (CapabilityException e) {
        // As the kernel's own discovery does: a backend that cannot be created as configured is unavailable.
      }
    }
    return List.copyOf(backends);
  }

  /** Closes the backends the tools shared; call it once nothing is served any more. */
  @Override
  public void close() {
    backends.forEach(ExecutionBackend::close);
  }

  /**
   * Serves one client over {@code in} and {@code out} (newline-delimited JSON-RPC) until {@code in}
   * ends. Nothing else may write to {@code out}.
   */
  public void serveStdio(InputStream in, OutputStream out) throws InterruptedException {
    CountDownLatch ended = new CountDownLatch(1);
    InputStream watched = new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        return ended(super.read());
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        return ended(super.read(buffer, offset, length));
      }

      private int ended(int read) {
        if (read < 0) {
          ended.countDown();
        }
        return read;
      }
    };
    McpJsonMapper mapper = McpJson.mapper();
    McpSyncServer server = build(McpServer.sync(new StdioServerTransportProvider(mapper, watched, out)), mapper, null, null);
    try {
      ended.await();
    } finally {
      server.closeGracefully();
    }
  }

  /**
   * Starts a streamable HTTP endpoint with {@code settings}, behind the gate that checks Host,
   * Origin, the bearer token, the body size and the concurrency limit.
   *
   * @throws CapabilityException {@link McpCodes#CONFIG_INVALID} when the listener cannot start
   */
  public HttpEndpoint startHttp(HttpSettings settings) {
    return startHttp(settings, List.of());
  }

  /**
   * As {@link #startHttp(HttpSettings)}, having first checked the acceptance commands the operator
   * configured for HTTP: each must be split without a shell and be allowed by the operator policy
   * by an exact argument list, in every allowed root. A bad one stops the server before it listens.
   *
   * @throws CapabilityException {@link McpCodes#CONFIG_INVALID} naming the command, or when the listener cannot start
   */
  public HttpEndpoint startHttp(HttpSettings settings, List<String> acceptanceCommands) {
    List<List<String>> listedCommands = AcceptanceCommands.requireExact(config, backends, acceptanceCommands);
    McpJsonMapper mapper = McpJson.mapper();
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(mapper)
        .mcpEndpoint(ENDPOINT)
        .maxRequestSize(settings.maxRequestBytes())
        .build();
    McpSyncServer mcp = build(McpServer.sync(transport).immediateExecution(true).requestTimeout(settings.requestTimeout()), mapper, settings.requestTimeout(), listedCommands);
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost(settings.address().getHostAddress());
    connector.setPort(settings.port());
    connector.setIdleTimeout(settings.requestTimeout().toMillis());
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    ServletHolder servlet = new ServletHolder(transport);
    servlet.setAsyncSupported(true);
    context.addServlet(servlet, "/*");
    FilterHolder gate = new FilterHolder(new HttpGate(settings));
    gate.setAsyncSupported(true);
    context.addFilter(gate, "/*", EnumSet.of(DispatcherType.REQUEST));
    jetty.setHandler(context);
    try {
      jetty.start();
    } catch (Exception e) {
      mcp.close();
      stop(jetty);
      throw new CapabilityException(McpCodes.CONFIG_INVALID, "cannot listen on " + settings.bindAddress() + ":" + settings.port() + ": " + e.getMessage(), e);
    }
    String host = settings.address().getHostAddress();
    URI uri = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + connector.getLocalPort() + ENDPOINT);
    return new HttpEndpoint() {
      @Override
      public URI uri() {
        return uri;
      }

      @Override
      public void join() throws InterruptedException {
        jetty.join();
      }

      @Override
      public void close() {
        mcp.closeGracefully();
        stop(jetty);
      }
    };
  }

  private static void stop(Server jetty) {
    try {
      jetty.stop();
    } catch (Exception e) {
      // Stopping a listener that failed or is stopping already has nothing left to release.
    }
  }

  /**
   * @param listedCommands the only commands plans saved through this server may name (HTTP), or
   *     null for any the layers allow (stdio, where the agent runs as the operator's own user)
   */
  private McpSyncServer build(
      McpServer.SyncSpecification<?> spec, McpJsonMapper mapper, @Nullable Duration commandTimeoutCap, @Nullable List<List<String>> listedCommands) {
    return spec.serverInfo("capability-kernel", CommandKernel.version())
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .jsonMapper(mapper)
        .jsonSchemaValidator(McpJson.schemaValidator())
        .instructions("Run commands, read and search files, run capabilities and read the evidence of repositories inside the "
            + "operator's allowed roots, under the operator's policy. Nothing here can widen that policy.")
        .tools(new Tools(config, backends, commandTimeoutCap, mapper, listedCommands).all())
        .build();
  }
}
