package dev.capability.egress.internal;

import dev.capability.linux.NativeCallException;
import dev.capability.linux.SplicedSockets;
import dev.capability.linux.TcpConnection;
import dev.capability.linux.SplicedSockets.Direction;
import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection relayed in the kernel: both channels leave the event loop (deregistered, so Netty
 * neither reads nor writes them again), and one thread per direction splices the bytes from one
 * socket to the other through a pipe, never copying them into the JVM. Every chunk is counted
 * into the attempt and taken from the session's budget before it goes on; a chunk past the budget
 * is dropped and the connection cut, as the copying relay does.
 *
 * <p>When a side's input ends, the other side's output is shut down (a half-close), and the relay
 * ends when both ways have; when neither way moved a byte for the idle timeout, or the session
 * closes, both sockets are shut down. Then the channels are closed through Netty, which runs the
 * exchange's own end of attempt bookkeeping.
 */
final class SplicedRelay {
  private static final Logger LOG = LoggerFactory.getLogger(SplicedRelay.class);
  private static final long CHUNK_BYTES = 1 << 20;
  private static final Duration MOST_WAIT = Duration.ofSeconds(1);

  private final SessionContext session;
  private final Attempt attempt;
  private final int clientDescriptor;
  private final Runnable closeClient;
  private final int destinationDescriptor;
  private final Runnable closeDestination;
  private final Runnable budgetSpent;
  private final long idleNanos;
  private final AtomicLong lastProgress = new AtomicLong(System.nanoTime());
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicInteger running = new AtomicInteger(2);
  private volatile @Nullable SplicedSockets sockets;

  private SplicedRelay(SessionContext session, Attempt attempt, int clientDescriptor, Runnable closeClient,
      int destinationDescriptor, Runnable closeDestination, Runnable budgetSpent) {
    this.session = session;
    this.attempt = attempt;
    this.clientDescriptor = clientDescriptor;
    this.closeClient = closeClient;
    this.destinationDescriptor = destinationDescriptor;
    this.closeDestination = closeDestination;
    this.budgetSpent = budgetSpent;
    this.idleNanos = session.limits.idleTimeout().toNanos();
  }

  /**
   * Takes {@code client} and {@code destination} off the event loop and relays them; {@code
   * discardClientInput}: what the client sends is read and dropped instead of relayed (a
   * plain-HTTP exchange whose one request has been forwarded). Called on the event loop, with
   * everything Netty had to write to either side already flushed.
   */
  static void start(SessionContext session, Attempt attempt, Channel client, Channel destination,
      boolean discardClientInput, Runnable budgetSpent) {
    SplicedRelay relay = new SplicedRelay(session, attempt, descriptor(client), client::close, descriptor(destination),
        destination::close, budgetSpent);
    client.pipeline().remove(IdleCloser.class);
    AtomicInteger deregistering = new AtomicInteger(2);
    Runnable both = () -> {
      if (deregistering.decrementAndGet() == 0) {
        if (client.isOpen() && destination.isOpen()) {
          relay.begin(discardClientInput, false);
        } else {
          relay.closeChannels();
        }
      }
    };
    client.deregister().addListener(done -> both.run());
    destination.deregister().addListener(done -> both.run());
  }

  /**
   * Relays the response that {@code destination} sends to the one request already written to it,
   * on the calling relay thread until it ends, then reads and drops the client's input until the
   * client closes. The client's socket ({@code clientDescriptor}, open, read by nothing else) is
   * closed by {@code closeClient}. The relay owns {@code destination} from here and closes it.
   */
  static void relayResponseHere(SessionContext session, Attempt attempt, int clientDescriptor, Runnable closeClient,
      TcpConnection destination, Runnable budgetSpent) {
    new SplicedRelay(session, attempt, clientDescriptor, closeClient, destination.descriptor(), destination::close,
        budgetSpent).begin(true, true);
  }

  /** {@code inboundHere}: the destination's bytes are pumped on the calling thread, which must be a relay thread. */
  private void begin(boolean discardClientInput, boolean inboundHere) {
    Duration wait = session.limits.idleTimeout().compareTo(MOST_WAIT) < 0 ? session.limits.idleTimeout() : MOST_WAIT;
    SplicedSockets opened;
    try {
      opened = SplicedSockets.open(clientDescriptor, destinationDescriptor, wait);
    } catch (NativeCallException e) {
      LOG.warn("cannot splice a relayed connection, closing it: {}", e.getMessage());
      closeChannels();
      return;
    }
    sockets = opened;
    if (!session.addRelay(this)) {
      opened.close();
      closeChannels();
      return;
    }
    Direction outbound;
    Direction inbound;
    try {
      outbound = discardClientInput ? opened.firstToNowhere() : opened.firstToSecond();
    } catch (NativeCallException e) {
      abandon(e, null);
      return;
    }
    try {
      inbound = opened.secondToFirst();
    } catch (NativeCallException e) {
      abandon(e, outbound);
      return;
    }
    if (inboundHere) {
      // One thread, one way after the other: the response first, then the client's input
      // thrown away until it closes. A client that writes more while it does not read stalls
      // only itself, until the idle timeout.
      pump(inbound, Way.RECEIVED);
      pump(outbound, Way.DISCARDED);
    } else {
      run(outbound, discardClientInput ? Way.DISCARDED : Way.SENT);
      run(inbound, Way.RECEIVED);
    }
  }

  private void abandon(NativeCallException e, @Nullable Direction made) {
    LOG.warn("cannot splice a relayed connection, closing it: {}", e.getMessage());
    if (made != null) {
      made.close();
    }
    running.set(0);
    finish();
  }

  private void run(Direction direction, Way way) {
    try {
      session.relayThreads.execute(() -> pump(direction, way));
    } catch (RejectedExecutionException closing) {
      direction.close();
      stop();
      if (running.decrementAndGet() == 0) {
        finish();
      }
    }
  }

  private static int descriptor(Channel channel) {
    return ((UnixChannel) channel).fd().intValue();
  }

  private enum Way { SENT, RECEIVED, DISCARDED }

  private void pump(Direction direction, Way way) {
    try (direction) {
      while (!stopped.get()) {
        long pulled = direction.pull(CHUNK_BYTES);
        if (pulled < 0) {
          break;
        }
        if (pulled == 0) {
          if (idle()) {
            stop();
          }
          continue;
        }
        lastProgress.set(System.nanoTime());
        if (way != Way.DISCARDED && !take(pulled, way)) {
          break;
        }
        while (!direction.push()) {
          if (direction.destinationEnded() || stopped.get()) {
            stop();
            break;
          }
          if (idle()) {
            stop();
          }
        }
        lastProgress.set(System.nanoTime());
      }
      if (!stopped.get()) {
        direction.endOutput();
      }
    } finally {
      if (running.decrementAndGet() == 0) {
        finish();
      }
    }
  }

  /** Counts and pays for {@code count} bytes; false, having cut the connection, past the budget. */
  private boolean take(long count, Way way) {
    if (!session.budget.spend(count)) {
      budgetSpent.run(); // recorded before the client can see the cut
      stop();
      return false;
    }
    if (way == Way.SENT) {
      attempt.addSent(count);
    } else {
      attempt.addReceived(count);
    }
    return true;
  }

  private boolean idle() {
    return System.nanoTime() - lastProgress.get() >= idleNanos;
  }

  /** Ends both ways now: the session closes, a limit was hit, or a side failed. */
  void stop() {
    if (stopped.compareAndSet(false, true)) {
      SplicedSockets current = sockets;
      if (current != null) {
        current.shutdown();
      }
    }
  }

  private void finish() {
    SplicedSockets current = sockets;
    if (current != null) {
      current.close();
    }
    session.removeRelay(this);
    closeChannels();
  }

  private void closeChannels() {
    closeClient.run();
    closeDestination.run();
  }
}
