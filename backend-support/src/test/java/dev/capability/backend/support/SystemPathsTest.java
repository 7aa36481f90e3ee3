package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SystemPathsTest {

  @Test
  void parsesPlainNamesAndPrefixesSkippingBlankParts() {
    assertThat(SystemPaths.etcNames(" hosts, ,ssl*,ld.so.cache ")).containsExactly("hosts", "ssl*", "ld.so.cache");
  }

  @Test
  void refusesNamesThatCouldLeaveEtc() {
    for (String bad : List.of("..", ".", "a/b", "../passwd", "*", "x*y", "with space")) {
      assertThatThrownBy(() -> SystemPaths.etcNames(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not a plain name under /etc");
    }
  }

  @Test
  void aPrefixSelectsTheHostsEntriesInOrderAndAPlainNameItselfEvenWhenMissing() throws Exception {
    List<Path> real;
    try (var entries = Files.list(Path.of("/etc"))) {
      real = entries.filter(p -> p.getFileName().toString().startsWith("host")).sorted().toList();
    }

    List<Path> selected = SystemPaths.etcEntries(List.of("host*", "no-such-entry-here"));

    assertThat(selected.subList(0, real.size())).isEqualTo(real);
    assertThat(selected).endsWith(Path.of("/etc/no-such-entry-here")).hasSize(real.size() + 1);
  }
}
