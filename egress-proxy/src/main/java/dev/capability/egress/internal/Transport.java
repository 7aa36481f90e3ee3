package dev.capability.egress.internal;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

/**
 * The socket layer under the proxy: Linux's epoll through Netty's native transport where it loads
 * (fewer system calls and copies per relayed chunk), Java's NIO otherwise. Both enforce the same
 * rules; only the cost differs.
 */
enum Transport {
  EPOLL {
    @Override
    IoHandlerFactory ioHandlers() {
      return EpollIoHandler.newFactory();
    }

    @Override
    Class<? extends ServerChannel> unixServer() {
      return EpollServerDomainSocketChannel.class;
    }

    @Override
    Class<? extends Channel> tcpClient() {
      return EpollSocketChannel.class;
    }

    @Override
    SocketAddress unixAddress(Path socket) {
      return new DomainSocketAddress(socket.toString());
    }
  },
  NIO {
    @Override
    IoHandlerFactory ioHandlers() {
      return NioIoHandler.newFactory();
    }

    @Override
    Class<? extends ServerChannel> unixServer() {
      return NioServerDomainSocketChannel.class;
    }

    @Override
    Class<? extends Channel> tcpClient() {
      return NioSocketChannel.class;
    }

    @Override
    SocketAddress unixAddress(Path socket) {
      return UnixDomainSocketAddress.of(socket);
    }
  };

  /** Epoll when its native library loads on this machine, else NIO. */
  static Transport best() {
    return Epoll.isAvailable() ? EPOLL : NIO;
  }

  abstract IoHandlerFactory ioHandlers();

  abstract Class<? extends ServerChannel> unixServer();

  abstract Class<? extends Channel> tcpClient();

  abstract SocketAddress unixAddress(Path socket);
}
