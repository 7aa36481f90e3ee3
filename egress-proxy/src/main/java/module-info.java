/**
 * The per-run egress proxy, found with {@link java.util.ServiceLoader} as an {@link
 * dev.capability.kernel.api.network.EgressGateway}.
 */
module dev.capability.egress {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires dev.capability.linux;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.http;
  requires io.netty.codec.socks;
  requires io.netty.common;
  requires io.netty.handler;
  requires io.netty.transport;
  requires io.netty.transport.classes.epoll;
  requires io.netty.transport.unix.common;
  requires org.slf4j;

  exports dev.capability.egress;

  provides dev.capability.kernel.api.network.EgressGateway
      with dev.capability.egress.NettyEgressGateway;
}
