package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressLimits;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5InitialRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5ServerEncoder;

/**
 * Tells SOCKS5 from HTTP by the client's first byte (SOCKS5's version, {@code 0x05}, is no HTTP
 * method's first letter), puts that protocol's handlers in its place and hands them the bytes.
 */
final class ProtocolSniffer extends ChannelInboundHandlerAdapter {
  private static final byte SOCKS5 = 0x05;

  private final Exchange exchange;
  private final EgressLimits limits;

  ProtocolSniffer(Exchange exchange, EgressLimits limits) {
    this.exchange = exchange;
    this.limits = limits;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf bytes) || !bytes.isReadable()) {
      ctx.fireChannelRead(msg);
      return;
    }
    ChannelPipeline pipeline = ctx.pipeline();
    String self = ctx.name();
    if (bytes.getByte(bytes.readerIndex()) == SOCKS5) {
      Socks5ProxyHandler handler = new Socks5ProxyHandler(exchange);
      pipeline.addAfter(self, Socks5ProxyHandler.INITIAL_DECODER, new Socks5InitialRequestDecoder());
      pipeline.addAfter(Socks5ProxyHandler.INITIAL_DECODER, Socks5ProxyHandler.ENCODER, Socks5ServerEncoder.DEFAULT);
      pipeline.addAfter(Socks5ProxyHandler.ENCODER, Socks5ProxyHandler.NAME, handler);
      exchange.began("socks5", handler);
    } else {
      HttpDecoderConfig config = new HttpDecoderConfig()
          .setMaxInitialLineLength(limits.maxHeaderBytes())
          .setMaxHeaderSize(limits.maxHeaderBytes());
      HttpProxyHandler handler = new HttpProxyHandler(exchange, limits.handshakeTimeout());
      pipeline.addAfter(self, HttpProxyHandler.DECODER, new HttpRequestDecoder(config));
      pipeline.addAfter(HttpProxyHandler.DECODER, HttpProxyHandler.NAME, handler);
      exchange.began("http", handler);
    }
    pipeline.remove(this);
    ctx.fireChannelRead(bytes);
  }
}
