package dev.capability.egress.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The first handler of a connection that {@link BlockingAcceptor} read from before handing it to
 * the event loop: once the channel is active it passes those bytes on as if just read, before the
 * channel reads anything itself, and leaves the pipeline.
 */
final class Replay extends ChannelInboundHandlerAdapter {
  private final ByteBuf firstBytes;

  Replay(ByteBuf firstBytes) {
    this.firstBytes = firstBytes;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    ctx.fireChannelActive();
    ctx.pipeline().remove(this);
    if (firstBytes.isReadable()) {
      ctx.fireChannelRead(firstBytes);
      ctx.fireChannelReadComplete();
    } else {
      firstBytes.release();
    }
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (!ctx.channel().isActive() && firstBytes.refCnt() > 0) {
      firstBytes.release(); // closed before it was active
    }
  }
}
