package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressRefusal;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP side of the proxy, after Netty's {@code HttpRequestDecoder}: one request per client
 * connection. {@code CONNECT host:port} is answered {@code 200} and becomes a raw relay; a request
 * with an absolute {@code http} URI is rewritten for the origin server and forwarded, its body
 * streamed, and the response relayed back as it comes; the destination closes after it ({@code
 * Connection: close}), and so does the client connection. Anything after the first request is
 * dropped. Where bytes are spliced, a request without a body skips Netty's side of the
 * destination altogether ({@link Exchange#forward}).
 */
final class HttpProxyHandler extends ChannelInboundHandlerAdapter implements Responder {
  static final String DECODER = "http-decoder";
  static final String NAME = "http-proxy";

  private final Exchange exchange;
  private final Duration linger;
  private final List<HttpContent> pendingBody = new ArrayList<>();
  private @Nullable ChannelHandlerContext context;
  private @Nullable HttpRequest forward;
  private @Nullable Channel destination;
  private boolean requested;
  private boolean tunnel;
  private boolean answered;
  private boolean bodyRead;

  /** {@code linger}: how long a refused client may go on sending before it is closed. */
  HttpProxyHandler(Exchange exchange, Duration linger) {
    this.exchange = exchange;
    this.linger = linger;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    context = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest request) {
      onRequest(ctx, request);
    }
    if (msg instanceof HttpContent content) {
      onContent(ctx, content);
    } else {
      ReferenceCountUtil.release(msg);
    }
  }

  private void onRequest(ChannelHandlerContext ctx, HttpRequest request) {
    if (requested) {
      return;
    }
    requested = true;
    DecoderResult result = request.decoderResult();
    if (result.isFailure()) {
      String reason = result.cause() instanceof TooLongFrameException
          ? EgressRefusal.HEADER_TOO_LARGE
          : EgressRefusal.MALFORMED;
      exchange.reject(reason);
      refused(reason);
      return;
    }
    ctx.channel().config().setAutoRead(false);
    if (HttpMethod.CONNECT.equals(request.method())) {
      tunnel = true;
      ProxyRequests.Target target = ProxyRequests.connectTarget(request.uri());
      if (target == null) {
        exchange.reject(EgressRefusal.MALFORMED);
        refused(EgressRefusal.MALFORMED);
        return;
      }
      exchange.request("connect", target.host(), target.port(), this);
      return;
    }
    ProxyRequests.Target target = ProxyRequests.rewrite(request);
    if (target == null) {
      exchange.reject(EgressRefusal.MALFORMED);
      refused(EgressRefusal.MALFORMED);
      return;
    }
    if (exchange.splicing() && ProxyRequests.bodiless(request)) {
      exchange.forward(target.host(), target.port(), ProxyRequests.head(request), this);
      return;
    }
    forward = request;
    exchange.request("http", target.host(), target.port(), this);
  }

  private void onContent(ChannelHandlerContext ctx, HttpContent content) {
    if (tunnel || forward == null || answered || bodyRead) {
      content.release(); // no body, or one that is not forwarded, or a later request's
      return;
    }
    bodyRead = content instanceof LastHttpContent;
    Channel connected = destination;
    if (connected == null) {
      pendingBody.add(content);
      return;
    }
    if (content instanceof LastHttpContent) {
      ChannelFuture forwarded = connected.writeAndFlush(content);
      if (exchange.splicing()) {
        exchange.relayResponse(forwarded);
      }
    } else {
      connected.write(content);
      if (!connected.isWritable()) {
        connected.flush();
        ctx.channel().config().setAutoRead(false);
      }
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    Channel connected = destination;
    if (connected != null) {
      connected.flush();
    }
  }

  /** The response's relay pauses reading the destination while the client cannot take more. */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    Channel connected = destination;
    if (connected != null && ctx.channel().isWritable() && !exchange.splicing()) {
      connected.config().setAutoRead(true);
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    pendingBody.forEach(ReferenceCountUtil::release);
    pendingBody.clear();
    ctx.fireChannelInactive();
  }

  @Override
  public void connected(Channel connected) {
    ChannelHandlerContext ctx = context();
    Channel client = ctx.channel();
    if (tunnel) {
      exchange.relay(client.writeAndFlush(HttpReplies.connected()), () -> {
        client.pipeline().remove(this);
        client.pipeline().remove(DECODER);
      });
      return;
    }
    destination = connected;
    connected.pipeline().addLast("http-encoder", new HttpRequestEncoder());
    ChannelFuture forwarded = connected.newSucceededFuture();
    HttpRequest request = forward;
    if (request != null) {
      forwarded = connected.write(request);
    }
    for (HttpContent content : pendingBody) {
      forwarded = connected.write(content);
    }
    pendingBody.clear();
    connected.flush();
    if (exchange.splicing()) {
      // The response is spliced once the whole request is forwarded; until then the body streams,
      // the client read again whenever the destination can take more.
      if (bodyRead) {
        exchange.relayResponse(forwarded);
      } else {
        connected.pipeline().addLast("resume-client", new ResumeWhenWritable(client));
        client.config().setAutoRead(true);
      }
      return;
    }
    connected.pipeline().addLast("relay", new RelayHandler(client));
    connected.config().setAutoRead(true);
    client.config().setAutoRead(true);
  }

  /**
   * Answers and closes. The client may still be sending (the rest of an oversized head, a body):
   * closing a socket with unread input resets it, and the client would lose the answer, so the
   * proxy half-closes, discards what still comes and closes when the client does, or after the
   * linger time.
   */
  @Override
  public void refused(String reason) {
    answered = true;
    pendingBody.forEach(ReferenceCountUtil::release);
    pendingBody.clear();
    Channel client = context().channel();
    client.writeAndFlush(HttpReplies.refusal(reason)).addListener(written -> {
      if (written.isSuccess() && client instanceof DuplexChannel duplex) {
        duplex.shutdownOutput();
        client.config().setAutoRead(true);
        client.eventLoop().schedule(() -> client.close(), linger.toNanos(), TimeUnit.NANOSECONDS);
      } else {
        client.close();
      }
    });
  }

  @Override
  public void failed(String reason, boolean refused) {
    refused(reason);
  }

  private ChannelHandlerContext context() {
    ChannelHandlerContext ctx = context;
    if (ctx == null) {
      throw new IllegalStateException("the handler is not in a pipeline");
    }
    return ctx;
  }
}
