package dev.capability.egress;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.net.UnixDomainSocketAddress;

/** A client of the proxy's Unix socket that speaks bytes, as a sandboxed program's relay does. */
final class ProxyClient implements AutoCloseable {
  private final SocketChannel channel;

  private ProxyClient(SocketChannel channel) {
    this.channel = channel;
  }

  static ProxyClient connect(Path socket) throws IOException {
    return new ProxyClient(SocketChannel.open(UnixDomainSocketAddress.of(socket)));
  }

  ProxyClient send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  ProxyClient send(byte... bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    return this;
  }

  /** Exactly {@code count} bytes; fails if the proxy closes first. */
  byte[] read(int count) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(count);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        throw new IOException("closed after " + buffer.position() + " of " + count + " bytes");
      }
    }
    return buffer.array();
  }

  String readText(int count) throws IOException {
    return new String(read(count), StandardCharsets.ISO_8859_1);
  }

  /** The HTTP response head, up to and including the blank line. */
  String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    ByteBuffer one = ByteBuffer.allocate(1);
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      one.clear();
      if (channel.read(one) < 0) {
        throw new IOException("closed in the response head: " + head.toString(StandardCharsets.ISO_8859_1));
      }
      head.write(one.get(0));
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /** Everything until the proxy closes the connection. */
  String readToEnd() throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteBuffer buffer = ByteBuffer.allocate(8192);
    while (channel.read(buffer.clear()) >= 0) {
      all.write(buffer.array(), 0, buffer.position());
    }
    return all.toString(StandardCharsets.ISO_8859_1);
  }

  /** Sends a SOCKS5 no-authentication greeting and reads the method the proxy chose. */
  byte socksGreeting() throws IOException {
    send((byte) 5, (byte) 1, (byte) 0);
    byte[] reply = read(2);
    return reply[1];
  }

  /** Sends a SOCKS5 CONNECT to a domain name and returns the reply code (after the greeting). */
  byte socksConnect(String host, int port) throws IOException {
    byte[] name = host.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer request = ByteBuffer.allocate(7 + name.length);
    request.put((byte) 5).put((byte) 1).put((byte) 0).put((byte) 3).put((byte) name.length).put(name);
    request.putShort((short) port);
    send(request.array());
    return socksReply();
  }

  /** Sends a SOCKS5 CONNECT to an IPv4 or IPv6 address and returns the reply code. */
  byte socksConnect(byte[] address, int port) throws IOException {
    ByteBuffer request = ByteBuffer.allocate(6 + address.length);
    request.put((byte) 5).put((byte) 1).put((byte) 0).put((byte) (address.length == 4 ? 1 : 4)).put(address);
    request.putShort((short) port);
    send(request.array());
    return socksReply();
  }

  private byte socksReply() throws IOException {
    byte[] head = read(4);
    int addressLength = switch (head[3]) {
      case 1 -> 4;
      case 4 -> 16;
      default -> read(1)[0] & 0xff;
    };
    read(addressLength + 2);
    return head[1];
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
