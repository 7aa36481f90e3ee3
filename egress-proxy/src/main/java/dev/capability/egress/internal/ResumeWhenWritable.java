package dev.capability.egress.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * On a destination whose request body is still streaming: reading the client, paused while the
 * destination could take no more, resumes once it can.
 */
final class ResumeWhenWritable extends ChannelInboundHandlerAdapter {
  private final Channel client;

  ResumeWhenWritable(Channel client) {
    this.client = client;
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      client.config().setAutoRead(true);
    }
    ctx.fireChannelWritabilityChanged();
  }
}
