package dev.capability.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileAllocationTest {
  @TempDir Path dir;

  @Test
  void aSparseFileCountsByTheBlocksItUsesNotItsSize() throws Exception {
    Path sparse = dir.resolve("sparse");
    try (RandomAccessFile file = new RandomAccessFile(sparse.toFile(), "rw")) {
      file.setLength(1L << 40);
    }
    FileAllocation allocation = FileAllocation.of(sparse).orElseThrow();

    assertThat(Files.size(sparse)).isEqualTo(1L << 40);
    assertThat(allocation.allocatedBytes()).isLessThan(1L << 20);
    assertThat(allocation.directory()).isFalse();
    assertThat(allocation.links()).isEqualTo(1);
  }

  @Test
  void writtenBytesAreAllocated() throws Exception {
    Path full = Files.write(dir.resolve("full"), new byte[4 << 20]);
    Path other = Files.write(dir.resolve("other"), new byte[1]);

    FileAllocation allocation = FileAllocation.of(full).orElseThrow();

    assertThat(allocation.allocatedBytes()).isGreaterThanOrEqualTo(4L << 20);
    assertThat(allocation.inode()).isEqualTo(Files.getAttribute(full, "unix:ino"));
    assertThat(allocation.device()).isEqualTo(FileAllocation.of(other).orElseThrow().device());
  }

  @Test
  void aSymbolicLinkIsNotFollowed() throws Exception {
    Path target = Files.write(dir.resolve("target"), new byte[1 << 20]);
    Path link = Files.createSymbolicLink(dir.resolve("link"), target);

    assertThat(FileAllocation.of(link).orElseThrow().allocatedBytes()).isLessThan(1L << 20);
    assertThat(FileAllocation.of(dir).orElseThrow().directory()).isTrue();
  }

  @Test
  void nothingThereIsEmpty() throws Exception {
    assertThat(FileAllocation.of(dir.resolve("absent"))).isEmpty();
    assertThat(FileAllocation.of(dir.resolve("absent/below"))).isEmpty();
  }
}
