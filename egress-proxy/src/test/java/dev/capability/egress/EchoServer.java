package dev.capability.egress;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/** A destination on loopback that echoes what it reads and counts the connections it accepted. */
final class EchoServer implements AutoCloseable {
  private final ServerSocket socket;
  private final AtomicInteger accepted = new AtomicInteger();
  private final Thread acceptor;

  EchoServer() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::acceptLoop, "echo-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  int accepted() {
    return accepted.get();
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        accepted.incrementAndGet();
        Thread echo = new Thread(() -> echo(client), "echo-connection");
        echo.setDaemon(true);
        echo.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private static void echo(Socket client) {
    try (client; InputStream in = client.getInputStream(); OutputStream out = client.getOutputStream()) {
      byte[] buffer = new byte[8192];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException ended) {
      // the proxy closed the connection
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
