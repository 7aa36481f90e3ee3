package dev.capability.egress.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relays what one side reads to the other. Reading pauses while the other side cannot take more
 * and resumes when it can, so a fast sender never buffers more than a socket's worth in the proxy.
 */
final class RelayHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(RelayHandler.class);

  private final Channel peer;

  RelayHandler(Channel peer) {
    this.peer = peer;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    peer.write(msg);
    if (!peer.isWritable()) {
      ctx.channel().config().setAutoRead(false);
      peer.flush();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    peer.flush();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      peer.config().setAutoRead(true);
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    closeAfterFlush(peer);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("egress relay closed on an error", cause);
    ctx.close();
  }

  /** Closes {@code channel} once what was written to it is flushed. */
  static void closeAfterFlush(Channel channel) {
    if (channel.isActive()) {
      channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
  }

  /**
   * Joins {@code client} and {@code destination} once the protocol's answer is written: each
   * relays to the other, {@code removeProtocol} takes the protocol's handlers off the client (a
   * decoder hands on what it read past the request, which the relay then forwards), and both
   * start reading.
   */
  static void join(Channel client, Channel destination, Runnable removeProtocol) {
    destination.pipeline().addLast("relay", new RelayHandler(client));
    client.pipeline().addLast("relay", new RelayHandler(destination));
    removeProtocol.run();
    destination.config().setAutoRead(true);
    client.config().setAutoRead(true);
  }
}
