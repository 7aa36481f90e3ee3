package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressLimits;
import io.netty.channel.Channel;
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
  /** Every open channel, client and destination side, so that closing the session closes them. */
  final Set<Channel> channels = ConcurrentHashMap.newKeySet();

  SessionContext(DestinationPolicy policy, EgressLimits limits, ExecutorService resolverThreads) {
    this.policy = policy;
    this.budget = new SessionBudget(limits);
    this.limits = limits;
    this.resolverThreads = resolverThreads;
  }

  /** Tracks {@code channel} until it closes. */
  void track(Channel channel) {
    channels.add(channel);
    channel.closeFuture().addListener(future -> channels.remove(channel));
  }
}
