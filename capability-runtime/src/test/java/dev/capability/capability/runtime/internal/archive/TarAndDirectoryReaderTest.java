package dev.capability.capability.runtime.internal.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.capability.runtime.PackageRefusedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TarAndDirectoryReaderTest {
  @TempDir Path dir;

  /** One ustar header and its data, padded to 512-byte blocks. */
  private static byte[] tarEntry(String name, char type, byte[] data, String link) {
    byte[] header = new byte[512];
    put(header, 0, name);
    put(header, 100, "0000644");
    put(header, 108, "0000000");
    put(header, 116, "0000000");
    put(header, 124, String.format("%011o", data.length));
    put(header, 136, "00000000000");
    for (int i = 148; i < 156; i++) {
      header[i] = ' ';
    }
    header[156] = (byte) type;
    put(header, 157, link);
    put(header, 257, "ustar");
    put(header, 263, "00");
    int sum = 0;
    for (byte b : header) {
      sum += b & 0xff;
    }
    put(header, 148, String.format("%06o", sum));
    header[154] = 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(header);
    out.writeBytes(data);
    out.writeBytes(new byte[(512 - data.length % 512) % 512]);
    return out.toByteArray();
  }

  private static void put(byte[] header, int at, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(bytes, 0, header, at, bytes.length);
  }

  private static byte[] tgz(byte[] trailingInsideTar, byte[]... entries) throws IOException {
    ByteArrayOutputStream tar = new ByteArrayOutputStream();
    for (byte[] entry : entries) {
      tar.writeBytes(entry);
    }
    tar.writeBytes(new byte[1024]);
    tar.writeBytes(trailingInsideTar);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(tar.toByteArray());
    }
    return gz.toByteArray();
  }

  private static byte[] file(String name, String text) {
    return tarEntry(name, '0', text.getBytes(StandardCharsets.UTF_8), "");
  }

  private static String code(ThrowingRead read) {
    try {
      read.run();
    } catch (PackageRefusedException e) {
      return e.code();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return "ACCEPTED";
  }

  private interface ThrowingRead {
    void run() throws IOException;
  }

  private static String tgzCode(byte[] tgz) {
    return code(() -> PackageReader.read(tgz, ArchiveLimits.DEFAULT, "test.tgz"));
  }

  @Test
  void readsAPlainTgz() throws IOException {
    PackageContents contents =
        PackageReader.read(
            tgz(new byte[0], tarEntry("lib/", '5', new byte[0], ""), file("lib/a.txt", "hello")),
            ArchiveLimits.DEFAULT,
            "test.tgz");
    assertThat(contents.fileNames()).containsExactly("lib/a.txt");
    assertThat(contents.file("lib/a.txt").orElseThrow()).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void refusesTarLinksDevicesAndTraversal() throws IOException {
    assertThat(tgzCode(tgz(new byte[0], tarEntry("link", '2', new byte[0], "/etc/passwd")))).isEqualTo("ARCHIVE_SYMLINK");
    assertThat(tgzCode(tgz(new byte[0], file("a", "x"), tarEntry("b", '1', new byte[0], "a")))).isEqualTo("ARCHIVE_SYMLINK");
    assertThat(tgzCode(tgz(new byte[0], tarEntry("dev", '3', new byte[0], "")))).isEqualTo("ARCHIVE_SPECIAL_FILE");
    assertThat(tgzCode(tgz(new byte[0], tarEntry("fifo", '6', new byte[0], "")))).isEqualTo("ARCHIVE_SPECIAL_FILE");
    assertThat(tgzCode(tgz(new byte[0], file("../escape", "x")))).isEqualTo("ARCHIVE_PATH_TRAVERSAL");
    assertThat(tgzCode(tgz(new byte[0], file("/etc/cron.d/evil", "x")))).isEqualTo("ARCHIVE_PATH_TRAVERSAL");
    assertThat(tgzCode(tgz(new byte[0], file("a.txt", "1"), file("a.txt", "2")))).isEqualTo("ARCHIVE_DUPLICATE_ENTRY");
  }

  @Test
  void refusesContentHiddenAfterTheTarOrTheGzipMember() throws IOException {
    assertThat(tgzCode(tgz("hidden".getBytes(StandardCharsets.UTF_8), file("a", "x")))).isEqualTo("ARCHIVE_PREPENDED_DATA");
    byte[] one = tgz(new byte[0], file("a", "x"));
    byte[] twoMembers = new byte[one.length * 2];
    System.arraycopy(one, 0, twoMembers, 0, one.length);
    System.arraycopy(one, 0, twoMembers, one.length, one.length);
    assertThat(tgzCode(twoMembers)).isEqualTo("ARCHIVE_PREPENDED_DATA");
  }

  @Test
  void refusesAGzipBomb() throws IOException {
    assertThat(tgzCode(tgz(new byte[0], tarEntry("zeros", '0', new byte[8 << 20], "")))).isEqualTo("ARCHIVE_BOMB");
  }

  @Test
  void refusesAnythingThatIsNotAKnownArchive() {
    assertThat(code(() -> PackageReader.read("plain text".getBytes(StandardCharsets.UTF_8), ArchiveLimits.DEFAULT, "x")))
        .isEqualTo("ARCHIVE_UNSUPPORTED");
  }

  @Test
  void readsADirectory() throws IOException {
    Files.createDirectories(dir.resolve("lib"));
    Files.writeString(dir.resolve("lib/a.txt"), "hello");
    PackageContents contents = PackageReader.read(dir, ArchiveLimits.DEFAULT);
    assertThat(contents.fileNames()).containsExactly("lib/a.txt");
  }

  @Test
  void refusesSymlinksInADirectory() throws IOException {
    Files.createSymbolicLink(dir.resolve("passwd"), Path.of("/etc/passwd"));
    assertThat(code(() -> PackageReader.read(dir, ArchiveLimits.DEFAULT))).isEqualTo("ARCHIVE_SYMLINK");
  }

  @Test
  void refusesHardLinksInADirectory() throws IOException {
    Files.writeString(dir.resolve("a"), "x");
    Files.createLink(dir.resolve("b"), dir.resolve("a"));
    assertThat(code(() -> PackageReader.read(dir, ArchiveLimits.DEFAULT))).isEqualTo("ARCHIVE_SYMLINK");
  }

  @Test
  void refusesAFifoInADirectory() throws Exception {
    Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("pipe").toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    assertThat(code(() -> PackageReader.read(dir, ArchiveLimits.DEFAULT))).isEqualTo("ARCHIVE_SPECIAL_FILE");
  }

  @Test
  void refusesCaseCollisionsInADirectory() throws IOException {
    Files.writeString(dir.resolve("Readme"), "x");
    Files.writeString(dir.resolve("README"), "y");
    assertThat(code(() -> PackageReader.read(dir, ArchiveLimits.DEFAULT))).isEqualTo("ARCHIVE_NAME_COLLISION");
  }
}
