package dev.capability.egress.internal;

import dev.capability.egress.EgressResolver;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.linux.NativeAccess;
import dev.capability.linux.NativeCallException;
import dev.capability.linux.UnixConnection;
import dev.capability.linux.UnixListener;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
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
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's proxy: a Unix socket in a private directory, one event-loop thread and a few resolver
 * threads, all named {@code capability-egress-<id>-}, all ended by {@link #close()}. Where bytes
 * are spliced, the socket is accepted from by blocking threads ({@link BlockingAcceptor}), which
 * hand the connections they do not serve themselves to the event loop; otherwise Netty accepts.
 */
public final class ProxySession implements EgressSession {
  /** The prefix of every thread and directory name of a session. */
  public static final String NAME_PREFIX = "capability-egress-";

  private static final Logger LOG = LoggerFactory.getLogger(ProxySession.class);
  private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(10);
  private static final int RESOLVER_THREADS = 4;
  private static final int BACKLOG = 128;

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
  private final TrackingThreadFactory acceptThreads;
  private final @Nullable ThreadPoolExecutor accepting;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicBoolean listening = new AtomicBoolean(true);
  private volatile @Nullable Channel server;
  private volatile @Nullable UnixListener listener;
  private volatile @Nullable BlockingAcceptor acceptor;

  private ProxySession(Path directory, EgressRules rules, EgressResolver resolver, boolean allowSplicing) {
    String name = directory.getFileName().toString();
    this.directory = directory;
    this.socket = directory.resolve("proxy.sock");
    this.ioThreads = new TrackingThreadFactory(name + "-io");
    this.resolverThreads = new TrackingThreadFactory(name + "-resolver");
    this.relayThreads = new TrackingThreadFactory(name + "-relay");
    this.acceptThreads = new TrackingThreadFactory(name + "-accept");
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
    if (splicing) {
      // One thread per connection it serves, and one waiting; more would wait for nothing.
      this.accepting = new ThreadPoolExecutor(0, Math.min(rules.limits().maxConcurrentConnections() + 2, 4096),
          5, TimeUnit.SECONDS, new SynchronousQueue<>(), acceptThreads);
      listenBlocking(accepting);
    } else {
      this.accepting = null;
      this.server = listen();
    }
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
            initClient(client, Admission.admit(context, ProxySession.this::stopAccepting), null);
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

  /** A client connection's handlers: it sends its request to them, or they answer {@code decided}. */
  private void initClient(Channel client, Admission admission, @Nullable Verdict decided) {
    context.track(client);
    Exchange exchange = new Exchange(context, client, admission, decided);
    client.pipeline().addLast("idle", new IdleCloser(context.limits.idleTimeout()));
    client.pipeline().addLast("sniff", new ProtocolSniffer(exchange, context.limits));
    client.pipeline().addLast("errors", ErrorCloser.INSTANCE);
  }

  private void listenBlocking(ThreadPoolExecutor threads) {
    UnixListener bound;
    try {
      bound = UnixListener.listen(socket, BACKLOG);
    } catch (NativeCallException e) {
      shutDownThreads();
      throw new NetworkFilterUnavailableException("cannot listen on " + socket + ": " + e.getMessage(), e);
    }
    listener = bound;
    try {
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
    } catch (IOException e) {
      bound.close();
      shutDownThreads();
      throw new NetworkFilterUnavailableException("cannot open " + socket + " to the sandbox's user: " + e.getMessage(), e);
    }
    BlockingAcceptor started = new BlockingAcceptor(context, bound, threads, this::stopAccepting, this::adopt);
    acceptor = started;
    started.start();
    LOG.debug("egress proxy listening on {}, accepting on blocking threads", socket);
  }

  /**
   * Serves on the event loop a connection the blocking acceptor took, as if Netty had accepted it:
   * the same options and handlers, with {@code firstBytes} (what the acceptor read) passed to
   * them before anything else the client sends.
   */
  private void adopt(UnixConnection connection, Admission admission, byte[] firstBytes, @Nullable Verdict decided) {
    EpollDomainSocketChannel client = new EpollDomainSocketChannel(connection.release());
    client.config().setRecvByteBufAllocator(Relaying.RECEIVE_BUFFERS).setWriteBufferWaterMark(Relaying.WATER_MARK);
    client.pipeline().addLast(new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel adopted) {
        adopted.pipeline().addLast(new Replay(Unpooled.wrappedBuffer(firstBytes)));
        initClient(adopted, admission, decided);
      }
    });
    group.register(client).addListener(registered -> {
      if (!registered.isSuccess()) {
        admission.release(); // the session is closing; Netty closed the socket
      }
    });
  }

  /** The attempts are spent: the next connections fail at the socket instead of being recorded. */
  private void stopAccepting() {
    if (!listening.compareAndSet(true, false)) {
      return;
    }
    Channel nettyServer = server;
    if (nettyServer != null) {
      nettyServer.close();
    }
    UnixListener blocking = listener;
    if (blocking != null) {
      blocking.close();
      deleteQuietly(socket);
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
    Channel nettyServer = server;
    if (nettyServer != null) {
      nettyServer.close().awaitUninterruptibly();
    }
    UnixListener blocking = listener;
    if (blocking != null) {
      blocking.close();
    }
    BlockingAcceptor taking = acceptor;
    if (taking != null) {
      taking.stop();
    }
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
    ThreadPoolExecutor blocking = accepting;
    if (blocking != null) {
      blocking.shutdown();
      try {
        blocking.awaitTermination(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
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
    if (!ioThreads.joinAll(SHUTDOWN_WAIT) || !resolverThreads.joinAll(SHUTDOWN_WAIT) || !relayThreads.joinAll(SHUTDOWN_WAIT)
        || !acceptThreads.joinAll(SHUTDOWN_WAIT)) {
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
