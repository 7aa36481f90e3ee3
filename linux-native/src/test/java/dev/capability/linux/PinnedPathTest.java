package dev.capability.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PinnedPathTest {
  @TempDir Path temp;

  @Test
  void pinsADirectoryThatStaysTheSameObjectWhenThePathIsSwappedForALink() throws IOException {
    Path root = temp.toRealPath();
    Path scope = Files.createDirectory(root.resolve("scope"));
    Object original = Files.readAttributes(scope, BasicFileAttributes.class).fileKey();
    try (PinnedPath pinned = PinnedPath.open(scope)) {
      assertThat(pinned.isDirectory()).isTrue();
      Files.move(scope, root.resolve("moved"));
      Files.createSymbolicLink(scope, Path.of("/"));
      Path held = Path.of("/proc/self/fd", Integer.toString(pinned.descriptor()));
      assertThat(Files.readAttributes(held, BasicFileAttributes.class).fileKey())
          .isEqualTo(original);
      assertThat(Files.readSymbolicLink(held)).isEqualTo(root.resolve("moved"));
    }
  }

  @Test
  void refusesAPathThatEndsInASymbolicLink() throws IOException {
    Path root = temp.toRealPath();
    Path link = Files.createSymbolicLink(root.resolve("link"), Path.of("/tmp"));
    assertThatThrownBy(() -> PinnedPath.open(link))
        .isInstanceOfSatisfying(
            NativeCallException.class,
            e -> assertThat(e.code()).isEqualTo(NativeCallException.PATH_HAS_SYMLINK))
        .hasMessageContaining(link.toString());
  }

  @Test
  void refusesAPathThatPassesThroughASymbolicLink() throws IOException {
    Path root = temp.toRealPath();
    Files.createDirectories(root.resolve("real/inner"));
    Files.createSymbolicLink(root.resolve("link"), root.resolve("real"));
    assertThatThrownBy(() -> PinnedPath.open(root.resolve("link/inner")))
        .isInstanceOfSatisfying(
            NativeCallException.class,
            e -> assertThat(e.code()).isEqualTo(NativeCallException.PATH_HAS_SYMLINK))
        .hasMessageContaining(root.resolve("link").toString());
  }

  @Test
  void pinsARegularFileForReading() throws IOException {
    Path file = Files.writeString(temp.toRealPath().resolve("data"), "content");
    try (PinnedPath pinned = PinnedPath.open(file)) {
      assertThat(pinned.isDirectory()).isFalse();
      Path held = Path.of("/proc/self/fd", Integer.toString(pinned.descriptor()));
      assertThat(Files.readString(held, StandardCharsets.UTF_8)).isEqualTo("content");
    }
  }

  @Test
  void refusesAMissingPathNamingTheMissingComponent() throws IOException {
    Path missing = temp.toRealPath().resolve("absent/below");
    assertThatThrownBy(() -> PinnedPath.open(missing))
        .isInstanceOfSatisfying(
            NativeCallException.class,
            e -> assertThat(e.code()).isEqualTo(NativeCallException.PATH_NOT_OPENED))
        .hasMessageContaining(temp.toRealPath().resolve("absent").toString());
  }

  @Test
  void refusesAFifoWithoutWaitingForAWriter() throws Exception {
    Path fifo = temp.toRealPath().resolve("fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    assertThatThrownBy(() -> PinnedPath.open(fifo))
        .isInstanceOfSatisfying(
            NativeCallException.class,
            e -> assertThat(e.code()).isEqualTo(NativeCallException.PATH_NOT_OPENED));
  }

  @Test
  void refusesRelativeAndUnnormalizedPaths() {
    assertThatThrownBy(() -> PinnedPath.open(Path.of("relative")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PinnedPath.open(Path.of("/tmp/../etc")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void closingReleasesTheDescriptor() throws IOException {
    PinnedPath pinned = PinnedPath.open(temp.toRealPath());
    Path held = Path.of("/proc/self/fd", Integer.toString(pinned.descriptor()));
    pinned.close();
    assertThat(Files.exists(held, java.nio.file.LinkOption.NOFOLLOW_LINKS)
            && Files.readSymbolicLink(held).equals(temp.toRealPath()))
        .isFalse();
    assertThatThrownBy(pinned::descriptor).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void pinsAUnixSocketThatCanBeConnectedToThroughItsDescriptor() throws IOException {
    Path socket = temp.toRealPath().resolve("server.sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      try (PinnedPath pinned = PinnedPath.openSocket(socket)) {
        Files.move(socket, temp.toRealPath().resolve("moved.sock"));
        Path held = Path.of("/proc/self/fd", Integer.toString(pinned.descriptor()));
        try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(held));
            SocketChannel accepted = server.accept()) {
          client.write(ByteBuffer.wrap("hello".getBytes(StandardCharsets.UTF_8)));
          ByteBuffer received = ByteBuffer.allocate(5);
          while (received.hasRemaining() && accepted.read(received) >= 0) {}
          assertThat(new String(received.array(), StandardCharsets.UTF_8)).isEqualTo("hello");
        }
      }
    }
  }

  @Test
  void refusesToPinASocketThatIsNotOne() throws IOException {
    Path root = temp.toRealPath();
    Path file = Files.writeString(root.resolve("plain"), "content");
    Path server = root.resolve("server.sock");
    try (ServerSocketChannel listening = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      listening.bind(UnixDomainSocketAddress.of(server));
      Path link = Files.createSymbolicLink(root.resolve("link.sock"), server);
      for (Path notASocket : List.of(file, link, root)) {
        assertThatThrownBy(() -> PinnedPath.openSocket(notASocket))
            .as("%s", notASocket)
            .isInstanceOfSatisfying(
                NativeCallException.class,
                e -> assertThat(e.code()).isEqualTo(NativeCallException.PATH_NOT_OPENED))
            .hasMessageContaining(notASocket.toString());
      }
    }
  }
}
