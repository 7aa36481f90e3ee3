package dev.capability.egress.internal;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;

/** The buffer sizes of relayed connections, client and destination side alike. */
final class Relaying {
  /**
   * Reads start at 16 KiB and grow to 256 KiB: a bulk transfer is relayed in few large reads, not
   * in Netty's default 2 KiB steps.
   */
  static final RecvByteBufAllocator RECEIVE_BUFFERS = new AdaptiveRecvByteBufAllocator(4 * 1024, 16 * 1024, 256 * 1024);

  /**
   * A side stops reading when 512 KiB wait to be written to the other, and resumes below 128 KiB:
   * at most that much per connection is held in the proxy.
   */
  static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(128 * 1024, 512 * 1024);

  private Relaying() {}
}
