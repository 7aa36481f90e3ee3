package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressLimits;
import io.netty.channel.Channel;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/** What every connection of one session shares. */
final class SessionContext {
  final DestinationPolicy policy;
  final SessionBudget budget;
  final SessionLog log = new SessionLog();
  final EgressLimits limits;
  final ExecutorService resolverThreads;
  final Transport transport;
  /** Where spliced relays run their directions (unused when {@link #splicing} is false). */
  final ExecutorService relayThreads;
  /** Whether relayed connections move their bytes in the kernel ({@link SplicedRelay}). */
  final boolean splicing;
  private final Set<SplicedRelay> relays = new HashSet<>();
  private boolean closing;
  /** Every open channel, client and destination side, so that closing the session closes them. */
  final Set<Channel> channels = ConcurrentHashMap.newKeySet();

  SessionContext(DestinationPolicy policy, EgressLimits limits, ExecutorService resolverThreads, Transport transport,
      ExecutorService relayThreads, boolean splicing) {
    this.policy = policy;
    this.budget = new SessionBudget(limits);
    this.limits = limits;
    this.resolverThreads = resolverThreads;
    this.transport = transport;
    this.relayThreads = relayThreads;
    this.splicing = splicing;
  }

  /** Tracks {@code channel} until it closes. */
  void track(Channel channel) {
    channels.add(channel);
    channel.closeFuture().addListener(future -> channels.remove(channel));
  }

  /** Registers a running relay; false once the session is closing (the relay must not start). */
  synchronized boolean addRelay(SplicedRelay relay) {
    return !closing && relays.add(relay);
  }

  synchronized void removeRelay(SplicedRelay relay) {
    relays.remove(relay);
  }

  /** Stops every running relay, and every relay that would start from now on. */
  void stopRelays() {
    List<SplicedRelay> running;
    synchronized (this) {
      closing = true;
      running = List.copyOf(relays);
    }
    running.forEach(SplicedRelay::stop);
  }
}
