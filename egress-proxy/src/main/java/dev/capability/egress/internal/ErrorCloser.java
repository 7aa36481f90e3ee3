package dev.capability.egress.internal;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a client connection: an error there (a reset, a codec failure nothing else
 * took) closes the connection; it is logged at debug level, since it is the client's doing.
 */
@ChannelHandler.Sharable
final class ErrorCloser extends ChannelInboundHandlerAdapter {
  static final ErrorCloser INSTANCE = new ErrorCloser();
  private static final Logger LOG = LoggerFactory.getLogger(ErrorCloser.class);

  private ErrorCloser() {}

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("egress client connection closed on an error", cause);
    ctx.close();
  }
}
