package dev.capability.egress.internal;

import dev.capability.egress.EgressResolver;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.linux.NativeAccess;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's proxy: a Unix socket in a private directory, one event-loop thread and a few resolver
 * threads, all named {@code capability-egress-<id>-}, all ended by {@link #close()}.
 */
public final class ProxySession implements EgressSession {
  /** The prefix of every thread and directory name of a session. */
  public static final String NAME_PREFIX = "capability-egress-";

  private static final Logger LOG = LoggerFactory.getLogger(ProxySession.class);
  private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(10);
  private static final int RESOLVER_THREADS = 4;

  static {
    NettyLogging.useSlf4j();
  }

  private final Path directory;
  private final Path socket;
  private final SessionContext context;
  private final EventLoopGroup group;
  private final TrackingThreadFactory ioThreads;
  private final TrackingThreadFactory resolverThreads;
  private final TrackingThreadFactory relayThreads;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Channel server;

  private ProxySession(Path directory, EgressRules rules, EgressResolver resolver, boolean allowSplicing) {
    String name = directory.getFileName().toString();
    this.directory = directory;
    this.socket = directory.resolve("proxy.sock");
    this.ioThreads = new TrackingThreadFactory(name + "-io");
    this.resolverThreads = new TrackingThreadFactory(name + "-resolver");
    this.relayThreads = new TrackingThreadFactory(name + "-relay");
    ThreadPoolExecutor resolving = new ThreadPoolExecutor(
        RESOLVER_THREADS, RESOLVER_THREADS, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), resolverThreads);
    resolving.allowCoreThreadTimeOut(true);
    // Two threads per relayed connection, made as needed; the admission limit bounds the connections.
    ThreadPoolExecutor relaying = new ThreadPoolExecutor(0, (int) Math.min(2L * rules.limits().maxConcurrentConnections() + 2, 4096),
        5, TimeUnit.SECONDS, new SynchronousQueue<>(), relayThreads);
    Transport transport = Transport.best();
    boolean splicing = allowSplicing && transport == Transport.EPOLL && NativeAccess.problem().isEmpty();
    this.context = new SessionContext(new DestinationPolicy(rules, resolver), rules.limits(), resolving, transport,
        relaying, splicing);
    this.group = new MultiThreadIoEventLoopGroup(1, ioThreads, context.transport.ioHandlers());
    this.server = listen();
  }

  /**
   * Starts a session enforcing {@code rules}, its socket in a new directory under {@code parent}.
   *
   * @throws NetworkFilterUnavailableException when the directory or the socket cannot be made
   */
  public static ProxySession open(EgressRules rules, EgressResolver resolver, Path parent) {
    return open(rules, resolver, parent, true);
  }

  /**
   * {@link #open(EgressRules, EgressResolver, Path)}; {@code allowSplicing} false keeps every
   * relayed byte on Netty's event loop even where splicing is available (tests run both relays).
   */
  public static ProxySession open(EgressRules rules, EgressResolver resolver, Path parent, boolean allowSplicing) {
    Path directory = parent.resolve(NAME_PREFIX + HexFormat.of().formatHex(randomBytes()));
    try {
      Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException | UnsupportedOperationException e) {
      throw new NetworkFilterUnavailableException("cannot create the egress proxy's directory " + directory + ": " + e.getMessage(), e);
    }
    try {
      return new ProxySession(directory, rules, resolver, allowSplicing);
    } catch (RuntimeException e) {
      deleteQuietly(directory.resolve("proxy.sock"));
      deleteQuietly(directory);
      throw e;
    }
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[6];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private Channel listen() {
    ChannelFuture bound = new ServerBootstrap()
        .group(group)
        .channel(context.transport.unixServer())
        .childOption(ChannelOption.RECVBUF_ALLOCATOR, Relaying.RECEIVE_BUFFERS)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, Relaying.WATER_MARK)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel client) {
            context.track(client);
            Exchange exchange = new Exchange(context, client, ProxySession.this::stopAccepting);
            client.pipeline().addLast("idle", new IdleCloser(context.limits.idleTimeout()));
            client.pipeline().addLast("sniff", new ProtocolSniffer(exchange, context.limits));
            client.pipeline().addLast("errors", ErrorCloser.INSTANCE);
          }
        })
        .bind(context.transport.unixAddress(socket))
        .awaitUninterruptibly();
    if (!bound.isSuccess()) {
      shutDownThreads();
      throw new NetworkFilterUnavailableException("cannot listen on " + socket + ": " + bound.cause(), bound.cause());
    }
    try {
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
    } catch (IOException e) {
      bound.channel().close().awaitUninterruptibly();
      shutDownThreads();
      throw new NetworkFilterUnavailableException("cannot open " + socket + " to the sandbox's user: " + e.getMessage(), e);
    }
    LOG.debug("egress proxy listening on {}", socket);
    return bound.channel();
  }

  /** The attempts are spent: the next connections fail at the socket instead of being recorded. */
  private void stopAccepting() {
    Channel listening = server;
    if (listening != null) {
      listening.close();
    }
  }

  @Override
  public Path socket() {
    return socket;
  }

  @Override
  public List<EgressConnection> connections() {
    return context.log.snapshot();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.close().awaitUninterruptibly();
    context.stopRelays();
    List<Channel> open = List.copyOf(context.channels);
    open.forEach(Channel::close);
    for (Channel channel : open) {
      channel.closeFuture().awaitUninterruptibly(SHUTDOWN_WAIT.toMillis());
    }
    shutDownThreads();
    deleteQuietly(socket);
    deleteQuietly(directory);
    LOG.debug("egress proxy on {} closed after {} attempts", socket, connections().size());
  }

  /**
   * Lets the resolutions under way finish (for a while), so that their verdicts are recorded,
   * then ends the event loop; what is still undecided then was never connected.
   */
  private void shutDownThreads() {
    context.relayThreads.shutdown();
    try {
      context.relayThreads.awaitTermination(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    context.resolverThreads.shutdown();
    try {
      context.resolverThreads.awaitTermination(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    context.resolverThreads.shutdownNow();
    group.shutdownGracefully(0, SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS).awaitUninterruptibly();
    context.log.settleOnShutdown();
    if (!ioThreads.joinAll(SHUTDOWN_WAIT) || !resolverThreads.joinAll(SHUTDOWN_WAIT) || !relayThreads.joinAll(SHUTDOWN_WAIT)) {
      LOG.warn("egress proxy threads of {} still running after {}", directory, SHUTDOWN_WAIT);
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.warn("cannot delete {}: {}", path, e.getMessage());
    }
  }
}
