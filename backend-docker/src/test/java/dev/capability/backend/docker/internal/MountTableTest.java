package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountTableTest {
  private static final MountTable TABLE =
      MountTable.parse(
          List.of(
              "22 1 0:21 / / rw,relatime shared:1 - overlay overlay rw",
              "23 22 0:22 / /srv/repo rw,relatime - ext4 /dev/sda1 rw",
              "24 23 0:23 / /srv/repo/cache rw,relatime unbindable - tmpfs tmpfs rw",
              "25 22 0:24 / /srv/with\\040space/inner rw - tmpfs tmpfs rw"));

  @Test
  void findsMountPointsStrictlyBelowASource() {
    assertThat(TABLE.below(Path.of("/srv/repo"))).containsExactly(Path.of("/srv/repo/cache"));
    assertThat(TABLE.below(Path.of("/srv/repo/cache"))).isEmpty();
    assertThat(TABLE.below(Path.of("/srv/repository"))).isEmpty();
  }

  @Test
  void decodesOctalEscapesInMountPoints() {
    assertThat(TABLE.below(Path.of("/srv/with space")))
        .containsExactly(Path.of("/srv/with space/inner"));
  }

  @Test
  void refusesASourceWithASubmountNamingBoth() {
    assertThatThrownBy(() -> TABLE.requireNoSubmounts(Path.of("/srv/repo"), "repository"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("repository /srv/repo")
        .hasMessageContaining("/srv/repo/cache");
  }

  @Test
  void refusesAMalformedLine() {
    assertThatThrownBy(() -> MountTable.parse(List.of("22 1 0:21")))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("malformed");
  }

  @Test
  void readsThisJvmsMountTable() {
    assertThat(MountTable.current().below(Path.of("/proc"))).isNotNull();
  }
}
