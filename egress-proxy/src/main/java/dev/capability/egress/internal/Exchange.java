package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.linux.NativeCallException;
import dev.capability.linux.TcpConnection;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection from reading its request to relaying it: the protocol handler reads the
 * requested destination and calls {@link #request}; this decides it against the rules and limits,
 * connects, records the attempt and hands the result to the protocol's {@link Responder}.
 */
final class Exchange {
  private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);
  private static final String LEFTOVER = "leftover";

  private final SessionContext session;
  private final Channel client;
  private final Attempt attempt;
  private final boolean withinLimits;
  private final ScheduledFuture<?> handshakeTimer;
  private final @Nullable Verdict decided;
  private @Nullable Responder responder;
  private @Nullable Channel destination;

  /**
   * {@code admission}: the client's place in the log and the limits, taken when it was accepted;
   * {@code decided}: the verdict on its plain request when the blocking path reached one that it
   * does not act on itself (a refusal or failure found once the name was resolved or the
   * connection tried), so that the replayed request is answered with it instead of resolving or
   * connecting again.
   */
  Exchange(SessionContext session, Channel client, Admission admission, @Nullable Verdict decided) {
    this.session = session;
    this.client = client;
    this.attempt = admission.attempt();
    this.withinLimits = admission.withinLimits();
    this.decided = decided;
    long timeout = session.limits.handshakeTimeout().toNanos() - (System.nanoTime() - admission.acceptedNanos());
    this.handshakeTimer = client.eventLoop().schedule(this::handshakeExpired, Math.max(0, timeout), TimeUnit.NANOSECONDS);
    client.closeFuture().addListener(closed -> {
      handshakeTimer.cancel(false);
      admission.release();
      Channel connected = destination;
      if (connected != null) {
        connected.close();
      }
    });
  }

  /** The client sent its first bytes, which chose {@code protocol} and its {@code responder}. */
  void began(String protocol, Responder responder) {
    attempt.protocol(protocol);
    attempt.sawBytes();
    this.responder = responder;
  }

  /** The client's request could not be read: recorded as refused with {@code reason}. */
  void reject(String reason) {
    handshakeTimer.cancel(false);
    attempt.decide(Outcome.REFUSED, reason);
  }

  /** The client asked for {@code host:port}: decide, connect and answer through {@code answer}. */
  void request(String protocol, String host, int port, Responder answer) {
    EgressDestination requested = admit(protocol, host, port, answer);
    if (requested == null) {
      return;
    }
    Verdict checked = session.policy.check(requested.host(), requested.port());
    if (checked != null) {
      apply(checked, requested.port(), answer);
      return;
    }
    try {
      session.resolverThreads.execute(() -> {
        Verdict resolved = session.policy.resolve(requested.host());
        try {
          client.eventLoop().execute(() -> apply(resolved, requested.port(), answer));
        } catch (RejectedExecutionException closing) {
          record(resolved);
        }
      });
    } catch (RejectedExecutionException closing) {
      attempt.decide(Outcome.FAILED, EgressRefusal.CONNECT_FAILED);
      client.close();
    }
  }

  /**
   * A plain request without a body ({@code head}, rewritten for the origin server), where bytes
   * are spliced. One relay thread does what {@link #request} and {@link #relayResponse} spread
   * over the event loop, the resolver and two relay threads: it resolves the name (when the rules
   * alone did not decide), connects with a blocking connect, writes the head, and splices the
   * response to the client, which leaves the event loop at once; the client's further input is
   * read and dropped. A refusal, or a connection that fails, puts the client back on the event
   * loop to be answered as {@link #request} answers it.
   */
  void forward(String host, int port, byte[] head, Responder answer) {
    EgressDestination requested = admit("http", host, port, answer);
    if (requested == null) {
      return;
    }
    Verdict checked = decided != null ? decided : session.policy.check(requested.host(), requested.port());
    if (checked != null && !checked.allowed()) {
      apply(checked, port, answer);
      return;
    }
    client.pipeline().remove(IdleCloser.class); // the relay's own idle timeout takes over; the connect is bounded
    // Leaving the loop from the loop takes no wake-up; asked from the relay thread it cost a
    // quarter of the proxy's time per connection (docs/BENCHMARKS.md).
    ChannelFuture leaving = client.deregister();
    try {
      session.relayThreads.execute(() -> forwardNow(checked, requested, head, answer, leaving));
    } catch (RejectedExecutionException closing) {
      attempt.decide(Outcome.FAILED, EgressRefusal.CONNECT_FAILED);
      client.close();
    }
  }

  private void forwardNow(@Nullable Verdict checked, EgressDestination requested, byte[] head, Responder answer,
      ChannelFuture leaving) {
    Verdict verdict = checked != null ? checked : session.policy.resolve(requested.host());
    InetAddress address = verdict.address();
    if (!verdict.allowed() || address == null) {
      backOnEventLoop(leaving, () -> apply(verdict, requested.port(), answer), () -> record(verdict));
      return;
    }
    record(verdict);
    if (!client.isActive()) {
      return;
    }
    TcpConnection connection;
    try {
      connection = TcpConnection.connect(address, requested.port(), session.limits.connectTimeout());
    } catch (NativeCallException e) {
      attempt.decide(Outcome.FAILED, EgressRefusal.CONNECT_FAILED);
      boolean refused = NativeCallException.CONNECT_REFUSED.equals(e.code());
      backOnEventLoop(leaving, () -> answer.failed(EgressRefusal.CONNECT_FAILED, refused), () -> { });
      return;
    }
    attempt.decide(Outcome.ALLOWED, null);
    switch (RequestHead.send(session, attempt, connection, head)) {
      case BUDGET_SPENT -> {
        budgetSpent();
        return;
      }
      case FAILED -> {
        client.close();
        return;
      }
      case SENT -> { }
    }
    if (!left(leaving) || !client.isOpen()) {
      connection.close();
      client.close();
      return;
    }
    SplicedRelay.relayResponseHere(session, attempt, descriptor(client), client::close, connection, this::budgetSpent);
  }

  /**
   * Whether the client has left its event loop; a loop that does not get to it within the connect
   * timeout is shutting down.
   */
  private boolean left(ChannelFuture leaving) {
    return leaving.awaitUninterruptibly(session.limits.connectTimeout().toMillis()) && leaving.isSuccess();
  }

  /**
   * Puts the client, which {@code leaving} took off its event loop, back on it and runs {@code
   * answer} there; when it cannot go back (the session is closing), runs {@code otherwise} and
   * closes it.
   */
  private void backOnEventLoop(ChannelFuture leaving, Runnable answer, Runnable otherwise) {
    if (!left(leaving)) {
      otherwise.run();
      client.close();
      return;
    }
    ChannelFuture back;
    try {
      back = client.eventLoop().register(client);
    } catch (RejectedExecutionException closing) {
      otherwise.run();
      client.close();
      return;
    }
    back.addListener(registered -> {
      if (registered.isSuccess()) {
        answer.run();
      } else {
        otherwise.run();
        client.close();
      }
    });
  }

  /**
   * Reads the requested destination and checks the session's limits; null, the client answered,
   * when the request cannot go on.
   */
  private @Nullable EgressDestination admit(String protocol, String host, int port, Responder answer) {
    handshakeTimer.cancel(false);
    EgressDestination requested;
    try {
      requested = new EgressDestination(host.toLowerCase(Locale.ROOT), port);
    } catch (IllegalArgumentException e) {
      attempt.protocol(protocol);
      reject(EgressRefusal.MALFORMED);
      answer.refused(EgressRefusal.MALFORMED);
      return null;
    }
    attempt.destination(protocol, requested.host(), requested.port());
    if (!withinLimits || session.budget.bytesSpent()) {
      attempt.decide(Outcome.REFUSED, EgressRefusal.LIMIT);
      answer.refused(EgressRefusal.LIMIT);
      return null;
    }
    return requested;
  }

  /**
   * Acts on the verdict: answers a refusal or failure, or connects. The verdict is recorded even
   * when the client has gone meanwhile, so that leaving right after asking for a forbidden
   * destination does not take the refusal out of the record.
   */
  private void apply(Verdict verdict, int port, Responder answer) {
    record(verdict);
    String reason = verdict.reason();
    if (!client.isActive()) {
      return;
    }
    if (reason != null) {
      LOG.debug("egress attempt {} to port {}: {}", verdict.outcome(), port, reason);
      if (verdict.outcome() == Outcome.FAILED) {
        answer.failed(reason, false);
      } else {
        answer.refused(reason);
      }
      return;
    }
    connect(new InetSocketAddress(verdict.address(), port), answer);
  }

  /**
   * Records a verdict's address and, for a refusal or failure, its outcome; an allowed verdict is
   * recorded once connected, or as a failed connection when the client has gone.
   */
  private void record(Verdict verdict) {
    if (!attempt.record(verdict) && !client.isActive()) {
      attempt.decide(Outcome.FAILED, EgressRefusal.CONNECT_FAILED);
    }
  }

  private void connect(InetSocketAddress target, Responder answer) {
    long connectMillis = Math.min(Integer.MAX_VALUE, session.limits.connectTimeout().toMillis());
    ChannelFuture connecting = new Bootstrap()
        .group(client.eventLoop())
        .channel(session.transport.tcpClient())
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.max(1, connectMillis))
        .option(ChannelOption.AUTO_READ, false)
        .option(ChannelOption.RECVBUF_ALLOCATOR, Relaying.RECEIVE_BUFFERS)
        .option(ChannelOption.WRITE_BUFFER_WATER_MARK, Relaying.WATER_MARK)
        .handler(new ByteCounter(session.budget, attempt, this::budgetSpent))
        .connect(target);
    session.track(connecting.channel());
    connecting.addListener(done -> {
      Channel channel = connecting.channel();
      if (!done.isSuccess()) {
        Throwable cause = done.cause();
        attempt.decide(Outcome.FAILED, EgressRefusal.CONNECT_FAILED);
        answer.failed(EgressRefusal.CONNECT_FAILED,
            cause instanceof ConnectException && !(cause instanceof ConnectTimeoutException));
        return;
      }
      attempt.decide(Outcome.ALLOWED, null);
      if (!client.isActive()) {
        channel.close();
        return;
      }
      destination = channel;
      answer.connected(channel);
    });
  }

  /**
   * Relays the client and the connected destination both ways, once {@code answered} (the
   * protocol's success answer to the client) is written: {@code removeProtocol} takes the
   * protocol's handlers off the client, and what its decoder had read past the request goes to the
   * destination first.
   */
  void relay(ChannelFuture answered, Runnable removeProtocol) {
    Channel connected = connectedDestination();
    if (!session.splicing) {
      RelayHandler.join(client, connected, removeProtocol);
      return;
    }
    client.pipeline().addLast(LEFTOVER, new LeftoverForwarder(connected));
    removeProtocol.run();
    client.pipeline().remove(LEFTOVER);
    whenWritten(answered, connected.writeAndFlush(Unpooled.EMPTY_BUFFER),
        () -> SplicedRelay.start(session, attempt, client, connected, false, this::budgetSpent));
  }

  /**
   * Relays the destination's response to the client, once {@code forwarded} (the one request
   * this client connection may send) is written; the client's further input is read and dropped.
   * Only where {@link #splicing()}.
   */
  void relayResponse(ChannelFuture forwarded) {
    Channel connected = connectedDestination();
    client.config().setAutoRead(false);
    whenWritten(forwarded, client.writeAndFlush(Unpooled.EMPTY_BUFFER),
        () -> SplicedRelay.start(session, attempt, client, connected, true, this::budgetSpent));
  }

  /** Whether relayed bytes are spliced in the kernel ({@link #relay}, {@link #relayResponse}) rather than copied. */
  boolean splicing() {
    return session.splicing;
  }

  private static int descriptor(Channel channel) {
    return ((io.netty.channel.unix.UnixChannel) channel).fd().intValue();
  }

  private Channel connectedDestination() {
    Channel connected = destination;
    if (connected == null) {
      throw new IllegalStateException("no destination is connected");
    }
    return connected;
  }

  /** Runs {@code then} on the event loop once both writes succeeded; closes the client otherwise. */
  private void whenWritten(ChannelFuture first, ChannelFuture second, Runnable then) {
    AtomicInteger pending = new AtomicInteger(2);
    GenericFutureListener<Future<Void>> done = written -> {
      if (!written.isSuccess()) {
        client.close();
      } else if (pending.decrementAndGet() == 0) {
        then.run();
      }
    };
    first.addListener(done);
    second.addListener(done);
  }

  private void handshakeExpired() {
    if (attempt.isDecided() || attempt.hasDestination()) {
      return;
    }
    attempt.decide(Outcome.REFUSED, EgressRefusal.HANDSHAKE_TIMEOUT);
    Responder current = responder;
    if (current == null) {
      client.close();
    } else {
      current.refused(EgressRefusal.HANDSHAKE_TIMEOUT);
    }
  }

  private void budgetSpent() {
    LOG.debug("egress byte budget spent: closing a relayed connection");
    attempt.cutByBudget();
    client.close();
    Channel connected = destination;
    if (connected != null) {
      connected.close();
    }
  }
}
