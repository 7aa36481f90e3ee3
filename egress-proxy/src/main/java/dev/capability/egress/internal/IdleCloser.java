package dev.capability.egress.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Closes a client connection that neither read nor wrote for the idle timeout. */
final class IdleCloser extends IdleStateHandler {
  IdleCloser(Duration idleTimeout) {
    super(0, 0, idleTimeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  @Override
  protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent event) {
    ctx.close();
  }
}
