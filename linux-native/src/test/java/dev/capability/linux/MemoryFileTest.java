package dev.capability.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MemoryFileTest {
  @Test
  void aChildReadsTheBytesFromTheStartThroughTheHandedDescriptor() throws Exception {
    byte[] content = new byte[200_000];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) ('a' + i % 26);
    }
    try (MemoryFile file = MemoryFile.of("test", content)) {
      Process cat =
          DescriptorSpawn.start(
              new DescriptorSpawn.Request(
                  List.of("/usr/bin/cat", "/proc/self/fd/3"),
                  Map.of(),
                  Path.of("/"),
                  null,
                  List.of(file.descriptor())));
      byte[] read = cat.getInputStream().readAllBytes();
      assertThat(cat.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(new String(read, StandardCharsets.US_ASCII))
          .isEqualTo(new String(content, StandardCharsets.US_ASCII));
    }
  }
}
