package dev.capability.egress.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.io.IOException;

/**
 * The first handler of a destination connection: counts the bytes relayed each way into the
 * attempt and takes them from the session's budget; bytes past the budget are dropped and the
 * connection is cut.
 */
final class ByteCounter extends ChannelDuplexHandler {
  private final SessionBudget budget;
  private final Attempt attempt;
  private final Runnable budgetSpent;

  ByteCounter(SessionBudget budget, Attempt attempt, Runnable budgetSpent) {
    this.budget = budget;
    this.attempt = attempt;
    this.budgetSpent = budgetSpent;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf buf) {
      int count = buf.readableBytes();
      if (!budget.spend(count)) {
        buf.release();
        budgetSpent.run();
        return;
      }
      attempt.addReceived(count);
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof ByteBuf buf) {
      int count = buf.readableBytes();
      if (!budget.spend(count)) {
        buf.release();
        promise.tryFailure(new IOException("the run's egress byte budget is spent"));
        budgetSpent.run();
        return;
      }
      attempt.addSent(count);
    }
    ctx.write(msg, promise);
  }
}
