package dev.capability.egress.internal;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.netty.util.internal.logging.Slf4JLoggerFactory;

/**
 * Keeps Netty's own logging on SLF4J. Netty passes over SLF4J when it is bound to its no-operation
 * logger (as the CLI binds it) and falls back to {@code java.util.logging}, which prints to
 * stderr; the project logs through SLF4J only.
 */
final class NettyLogging {
  private NettyLogging() {}

  static void useSlf4j() {
    if (InternalLoggerFactory.getDefaultFactory() instanceof JdkLoggerFactory) {
      InternalLoggerFactory.setDefaultFactory(Slf4JLoggerFactory.INSTANCE);
    }
  }
}
