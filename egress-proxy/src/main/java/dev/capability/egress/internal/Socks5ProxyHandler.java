package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressRefusal;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.socksx.v5.DefaultSocks5CommandResponse;
import io.netty.handler.codec.socksx.v5.DefaultSocks5InitialResponse;
import io.netty.handler.codec.socksx.v5.Socks5AddressType;
import io.netty.handler.codec.socksx.v5.Socks5AuthMethod;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequest;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5CommandStatus;
import io.netty.handler.codec.socksx.v5.Socks5CommandType;
import io.netty.handler.codec.socksx.v5.Socks5InitialRequest;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The SOCKS5 side of the proxy (RFC 1928), after Netty's SOCKS5 decoders: no authentication,
 * {@code CONNECT} only, to a domain name, an IPv4 or an IPv6 address. A refusal is answered {@code
 * 0x02} (not allowed by the ruleset), a name that does not resolve {@code 0x04} (host
 * unreachable), a destination that refuses {@code 0x05} (connection refused).
 */
final class Socks5ProxyHandler extends ChannelInboundHandlerAdapter implements Responder {
  static final String INITIAL_DECODER = "socks-initial-decoder";
  static final String COMMAND_DECODER = "socks-command-decoder";
  static final String ENCODER = "socks-encoder";
  static final String NAME = "socks-proxy";

  private final Exchange exchange;
  private final List<ByteBuf> pending = new ArrayList<>();
  private @Nullable ChannelHandlerContext context;
  private boolean requested;

  Socks5ProxyHandler(Exchange exchange) {
    this.exchange = exchange;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    context = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof Socks5InitialRequest greeting) {
      onGreeting(ctx, greeting);
    } else if (msg instanceof Socks5CommandRequest command) {
      onCommand(ctx, command);
    } else if (msg instanceof ByteBuf bytes && requested) {
      pending.add(bytes); // sent before the reply: relayed once connected
      return;
    }
    ReferenceCountUtil.release(msg);
  }

  private void onGreeting(ChannelHandlerContext ctx, Socks5InitialRequest greeting) {
    if (greeting.decoderResult().isFailure() || !greeting.authMethods().contains(Socks5AuthMethod.NO_AUTH)) {
      exchange.reject(EgressRefusal.MALFORMED);
      ctx.writeAndFlush(new DefaultSocks5InitialResponse(Socks5AuthMethod.UNACCEPTED))
          .addListener(ChannelFutureListener.CLOSE);
      return;
    }
    ctx.pipeline().addAfter(INITIAL_DECODER, COMMAND_DECODER, new Socks5CommandRequestDecoder());
    ctx.writeAndFlush(new DefaultSocks5InitialResponse(Socks5AuthMethod.NO_AUTH));
  }

  private void onCommand(ChannelHandlerContext ctx, Socks5CommandRequest command) {
    if (requested) {
      return;
    }
    requested = true;
    if (command.decoderResult().isFailure()) {
      exchange.reject(EgressRefusal.MALFORMED);
      reply(Socks5CommandStatus.ADDRESS_UNSUPPORTED, true);
      return;
    }
    if (!Socks5CommandType.CONNECT.equals(command.type())) {
      exchange.reject(EgressRefusal.MALFORMED);
      reply(Socks5CommandStatus.COMMAND_UNSUPPORTED, true);
      return;
    }
    ctx.channel().config().setAutoRead(false);
    exchange.request("socks5", command.dstAddr(), command.dstPort(), this);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    pending.forEach(ReferenceCountUtil::release);
    pending.clear();
    ctx.fireChannelInactive();
  }

  @Override
  public void connected(Channel destination) {
    Channel client = context().channel();
    ChannelFuture answered = reply(Socks5CommandStatus.SUCCESS, false);
    pending.forEach(destination::write);
    pending.clear();
    destination.flush();
    exchange.relay(answered, () -> {
      client.pipeline().remove(this);
      client.pipeline().remove(COMMAND_DECODER);
      client.pipeline().remove(INITIAL_DECODER);
      client.pipeline().remove(ENCODER);
    });
  }

  @Override
  public void refused(String reason) {
    if (EgressRefusal.HANDSHAKE_TIMEOUT.equals(reason)) {
      context().close();
    } else if (EgressRefusal.MALFORMED.equals(reason)) {
      reply(Socks5CommandStatus.FAILURE, true);
    } else {
      reply(Socks5CommandStatus.FORBIDDEN, true);
    }
  }

  @Override
  public void failed(String reason, boolean refused) {
    reply(refused ? Socks5CommandStatus.CONNECTION_REFUSED : Socks5CommandStatus.HOST_UNREACHABLE, true);
  }

  private ChannelFuture reply(Socks5CommandStatus status, boolean thenClose) {
    ChannelFuture written = context().writeAndFlush(new DefaultSocks5CommandResponse(status, Socks5AddressType.IPv4, "0.0.0.0", 0));
    if (thenClose) {
      written.addListener(ChannelFutureListener.CLOSE);
    }
    return written;
  }

  private ChannelHandlerContext context() {
    ChannelHandlerContext ctx = context;
    if (ctx == null) {
      throw new IllegalStateException("the handler is not in a pipeline");
    }
    return ctx;
  }
}
