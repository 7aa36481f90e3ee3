package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressConnection.Outcome;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import org.jspecify.annotations.Nullable;

/**
 * What the rules say about one requested destination: connect to {@code address}, or not, and
 * why.
 *
 * @param outcome {@code ALLOWED} to connect (not yet connected), else refused or failed
 * @param reason the code when not allowed
 * @param address the address to connect to, or the one that was refused; null when none was known
 */
record Verdict(Outcome outcome, @Nullable String reason, @Nullable InetAddress address) {
  static Verdict connect(InetAddress address) {
    return new Verdict(Outcome.ALLOWED, null, address);
  }

  static Verdict refuse(String reason, @Nullable InetAddress address) {
    return new Verdict(Outcome.REFUSED, reason, address);
  }

  static Verdict fail(String reason) {
    return new Verdict(Outcome.FAILED, reason, null);
  }

  boolean allowed() {
    return outcome == Outcome.ALLOWED;
  }

  /** The address as recorded, IPv6 compressed. */
  @Nullable String addressText() {
    return address == null ? null : NetUtil.toAddressString(address);
  }
}
