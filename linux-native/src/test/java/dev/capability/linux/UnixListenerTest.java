package dev.capability.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class UnixListenerTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path directory;

  @Test
  void acceptsAConnectionAndReadsWhatItSent() throws Exception {
    Path socket = directory.resolve("s.sock");
    try (UnixListener listener = UnixListener.listen(socket, 8);
        SocketChannel client = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      client.connect(UnixDomainSocketAddress.of(socket));
      client.write(ByteBuffer.wrap("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII)));

      try (UnixConnection accepted = listener.accept()) {
        assertThat(accepted).isNotNull();
        byte[] buffer = new byte[64];
        int read = accepted.read(buffer, WAIT);
        assertThat(new String(Arrays.copyOf(buffer, read), StandardCharsets.US_ASCII)).isEqualTo("GET / HTTP/1.1\r\n");
        assertThat(accepted.read(buffer, Duration.ofMillis(50))).as("nothing more within the wait").isZero();
        client.shutdownOutput();
        assertThat(accepted.read(buffer, WAIT)).as("the peer ended").isEqualTo(-1);
      }
    }
  }

  @Test
  void closingWakesEveryThreadWaitingInAcceptAndRefusesNewConnections() throws Exception {
    Path socket = directory.resolve("s.sock");
    UnixListener listener = UnixListener.listen(socket, 8);
    CompletableFuture<UnixConnection> first = CompletableFuture.supplyAsync(listener::accept);
    CompletableFuture<UnixConnection> second = CompletableFuture.supplyAsync(listener::accept);
    Thread.sleep(200); // both threads in accept(2), most likely; either way they must return null

    listener.close();

    assertThat(first.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(second.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(listener.accept()).as("after close").isNull();
    assertThatThrownBy(() -> {
      try (SocketChannel late = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
        late.write(ByteBuffer.wrap(new byte[] {1}));
      }
    }).isInstanceOf(IOException.class);
  }

  @Test
  void shutdownEndsAReadUnderWayAndAReleasedConnectionIsNoLongerTouched() throws Exception {
    Path socket = directory.resolve("s.sock");
    try (UnixListener listener = UnixListener.listen(socket, 8);
        SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      UnixConnection accepted = listener.accept();
      assertThat(accepted).isNotNull();
      assertThat(client.isConnected()).isTrue();
      CompletableFuture<Integer> reading = CompletableFuture.supplyAsync(() -> accepted.read(new byte[8], WAIT));
      Thread.sleep(100);
      accepted.shutdown();
      assertThat(reading.get(10, TimeUnit.SECONDS)).isEqualTo(-1);

      int descriptor = accepted.release();
      assertThat(descriptor).isEqualTo(accepted.descriptor());
      assertThatThrownBy(accepted::release).isInstanceOf(IllegalStateException.class);
      accepted.close(); // released: the new owner's to close
      assertThat(Path.of("/proc/self/fd/" + descriptor)).exists();
      dev.capability.linux.internal.SpliceCalls.close(descriptor);
    }
  }

  @Test
  void aPathTooLongForASocketIsRefusedWithItsCode() {
    Path socket = directory.resolve("x".repeat(120));
    assertThatThrownBy(() -> UnixListener.listen(socket, 8))
        .isInstanceOf(NativeCallException.class)
        .satisfies(e -> assertThat(((NativeCallException) e).code()).isEqualTo(NativeCallException.LISTEN_FAILED));
  }
}
