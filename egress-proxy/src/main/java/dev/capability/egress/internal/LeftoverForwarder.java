package dev.capability.egress.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Sends what a protocol decoder read past the request (handed on when the decoder is removed) to
 * the destination, through its pipeline, where it is counted like every relayed byte.
 */
final class LeftoverForwarder extends ChannelInboundHandlerAdapter {
  private final Channel destination;

  LeftoverForwarder(Channel destination) {
    this.destination = destination;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    destination.write(msg);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    destination.flush();
  }
}
