package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.linux.NativeCallException;
import dev.capability.linux.TcpConnection;
import dev.capability.linux.UnixConnection;
import dev.capability.linux.UnixListener;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session's socket where bytes are spliced: threads wait in a blocking {@code accept(2)}
 * (two wait; when one takes a connection and no other waits, it starts another first, and a
 * thread done with its connection waits again unless two already do), and the thread that takes a connection reads what the client sent first and
 * serves a plain request without a body through to the end itself: it decodes the head (Netty's
 * {@link HttpRequestDecoder}, the same bounds as the event loop's), checks the rules, resolves,
 * connects, writes the rewritten head and splices the response, with no hand-over to another
 * thread. Everything else (SOCKS5, {@code CONNECT}, a request with a body, a head not complete in
 * the first read, anything the decoder or the rules refuse, a connection past the limits) goes to
 * the event loop as a channel of its own, the bytes read so far replayed into it first, and is
 * served there exactly as a connection Netty accepted.
 */
final class BlockingAcceptor {
  private static final Logger LOG = LoggerFactory.getLogger(BlockingAcceptor.class);
  /** What the first read takes; a head that does not fit goes to the event loop. */
  private static final int FIRST_READ_BYTES = 8192;
  private static final byte SOCKS5 = 0x05;
  /**
   * Threads kept waiting in accept: with two, the next connection finds one waiting while the
   * other serves, and no thread is started or woken for it.
   */
  private static final int WAITING_THREADS = 2;
  private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  /** Hands a connection the blocking path does not serve to the event loop. */
  interface EventLoopHandOver {
    /**
     * Serves {@code connection} on the event loop from now on, {@code firstBytes} replayed into
     * it first; {@code decided}: the verdict its replayed request is answered with.
     */
    void adopt(UnixConnection connection, Admission admission, byte[] firstBytes, @Nullable Verdict decided);
  }

  private final SessionContext session;
  private final UnixListener listener;
  private final ThreadPoolExecutor threads;
  private final Runnable stopAccepting;
  private final EventLoopHandOver eventLoop;
  private final HttpDecoderConfig decoderConfig;
  private final AtomicInteger waiting = new AtomicInteger();
  private final Set<UnixConnection> served = new HashSet<>();
  private boolean stopping;

  BlockingAcceptor(SessionContext session, UnixListener listener, ThreadPoolExecutor threads, Runnable stopAccepting,
      EventLoopHandOver eventLoop) {
    this.session = session;
    this.listener = listener;
    this.threads = threads;
    this.stopAccepting = stopAccepting;
    this.eventLoop = eventLoop;
    this.decoderConfig = new HttpDecoderConfig()
        .setMaxInitialLineLength(session.limits.maxHeaderBytes())
        .setMaxHeaderSize(session.limits.maxHeaderBytes());
  }

  /** Starts the threads waiting for connections. */
  void start() {
    for (int i = 0; i < WAITING_THREADS; i++) {
      threads.execute(this::lead);
    }
  }

  /**
   * Ends every connection this path still serves (a read, a write or a splice under way returns)
   * and every one it would take from now on; the listener is closed by its owner.
   */
  void stop() {
    Set<UnixConnection> current;
    synchronized (this) {
      stopping = true;
      current = Set.copyOf(served);
    }
    current.forEach(UnixConnection::shutdown);
  }

  private void lead() {
    while (true) {
      waiting.incrementAndGet();
      UnixConnection connection;
      try {
        connection = listener.accept();
      } catch (NativeCallException e) {
        waiting.decrementAndGet();
        LOG.debug("egress proxy cannot accept a connection now: {}", e.getMessage());
        LockSupport.parkNanos(RETRY_NANOS); // out of descriptors: others will close
        continue;
      }
      int othersWaiting = waiting.decrementAndGet();
      if (connection == null) {
        return;
      }
      if (othersWaiting == 0) {
        promoteFollower();
      }
      serve(connection);
      if (waiting.get() >= WAITING_THREADS) {
        return; // enough wait already: this one goes back to the pool
      }
    }
  }

  private void promoteFollower() {
    try {
      threads.execute(this::lead);
    } catch (RejectedExecutionException full) {
      // As many threads as connections may be open: this one waits again once it is done.
    }
  }

  private void serve(UnixConnection connection) {
    Admission admission = Admission.admit(session, stopAccepting);
    if (!track(connection)) {
      connection.close();
      admission.release();
      return;
    }
    try {
      if (!admission.withinLimits()) {
        handOver(connection, admission, new byte[0], null);
        return;
      }
      long left = session.limits.handshakeTimeout().toNanos() - (System.nanoTime() - admission.acceptedNanos());
      byte[] buffer = new byte[FIRST_READ_BYTES];
      int read = connection.read(buffer, Duration.ofNanos(Math.max(0, left)));
      if (read < 0) {
        connection.close(); // left without a request: no attempt
        admission.release();
        return;
      }
      byte[] first = Arrays.copyOf(buffer, read);
      if (read == 0 || first[0] == SOCKS5) {
        handOver(connection, admission, first, null);
        return;
      }
      PlainRequest request = decode(first);
      if (request == null) {
        handOver(connection, admission, first, null);
        return;
      }
      forward(connection, admission, first, request);
    } finally {
      untrack(connection);
    }
  }

  private synchronized boolean track(UnixConnection connection) {
    return !stopping && served.add(connection);
  }

  private synchronized void untrack(UnixConnection connection) {
    served.remove(connection);
  }

  /** The event loop serves {@code connection} from here; when the session is closing, nobody does. */
  private void handOver(UnixConnection connection, Admission admission, byte[] firstBytes, @Nullable Verdict decided) {
    synchronized (this) {
      served.remove(connection);
      if (stopping) {
        connection.close();
        admission.release();
        return;
      }
    }
    eventLoop.adopt(connection, admission, firstBytes, decided);
  }

  /** A plain request this path serves: its destination and its head rewritten for the origin server. */
  private record PlainRequest(String host, int port, byte[] head) {}

  /**
   * The request in {@code bytes} when it is a whole, well-formed head of a plain request with an
   * absolute {@code http} URI and no body; null for anything else, which the event loop serves.
   */
  private @Nullable PlainRequest decode(byte[] bytes) {
    EmbeddedChannel decoding = new EmbeddedChannel(new HttpRequestDecoder(decoderConfig));
    try {
      decoding.writeInbound(Unpooled.wrappedBuffer(bytes));
      Object decoded = decoding.readInbound();
      if (!(decoded instanceof HttpRequest request) || request.decoderResult().isFailure()
          || HttpMethod.CONNECT.equals(request.method()) || !ProxyRequests.bodiless(request)) {
        ReferenceCountUtil.release(decoded);
        return null;
      }
      ProxyRequests.Target target = ProxyRequests.rewrite(request);
      return target == null ? null : new PlainRequest(target.host(), target.port(), ProxyRequests.head(request));
    } finally {
      decoding.finishAndReleaseAll();
    }
  }

  /**
   * {@link Exchange#forward} on this thread: the rules, the name, the connection, the head, the
   * response. What the rules refuse before resolving goes to the event loop with the request,
   * which decides it again (the same way) and answers; a refusal or failure found after resolving
   * or connecting goes there with its verdict, so that it is neither resolved nor connected twice.
   */
  private void forward(UnixConnection client, Admission admission, byte[] firstBytes, PlainRequest request) {
    Attempt attempt = admission.attempt();
    EgressDestination requested;
    try {
      requested = new EgressDestination(request.host().toLowerCase(Locale.ROOT), request.port());
    } catch (IllegalArgumentException e) {
      handOver(client, admission, firstBytes, null);
      return;
    }
    Verdict checked = session.policy.check(requested.host(), requested.port());
    if ((checked != null && !checked.allowed()) || session.budget.bytesSpent()) {
      handOver(client, admission, firstBytes, null);
      return;
    }
    attempt.sawBytes();
    attempt.destination("http", requested.host(), requested.port());
    Verdict verdict = checked != null ? checked : session.policy.resolve(requested.host());
    InetAddress address = verdict.address();
    if (!verdict.allowed() || address == null) {
      attempt.record(verdict);
      handOver(client, admission, firstBytes, verdict);
      return;
    }
    attempt.record(verdict);
    TcpConnection connection;
    try {
      connection = TcpConnection.connect(address, requested.port(), session.limits.connectTimeout());
    } catch (NativeCallException e) {
      attempt.decide(Outcome.FAILED, EgressRefusal.CONNECT_FAILED);
      handOver(client, admission, firstBytes, new Verdict(Outcome.FAILED, EgressRefusal.CONNECT_FAILED, address));
      return;
    }
    attempt.decide(Outcome.ALLOWED, null);
    Runnable closeClient = () -> {
      client.close();
      admission.release();
    };
    switch (RequestHead.send(session, attempt, connection, request.head())) {
      case BUDGET_SPENT -> {
        attempt.cutByBudget();
        closeClient.run();
        return;
      }
      case FAILED -> {
        closeClient.run();
        return;
      }
      case SENT -> { }
    }
    SplicedRelay.relayResponseHere(session, attempt, client.descriptor(), closeClient, connection, () -> {
      LOG.debug("egress byte budget spent: closing a relayed connection");
      attempt.cutByBudget();
    });
  }
}
