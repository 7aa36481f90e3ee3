package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import java.nio.file.Path;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** The backends' shared setting parsers: exact for what they accept, one exception for the rest. */
class SettingValuesProperties {
  private static final SettingValues VALUES = new SettingValues("test");

  @Property
  void aByteCountWithASuffixIsThatManyBinaryUnits(@ForAll @LongRange(min = 1, max = 1L << 32) long n) {
    assertThat(VALUES.bytes("k", n + "k")).isEqualTo(n << 10);
    assertThat(VALUES.bytes("k", " " + n + "M ")).isEqualTo(n << 20);
    assertThat(VALUES.bytes("k", Long.toString(n))).isEqualTo(n);
  }

  @Property
  void anythingElseIsRefusedNamingTheBackendTheSettingAndTheValue(@ForAll @StringLength(max = 30) String value) {
    boolean wellFormed = value.strip().matches("[0-9]+[kKmMgG]?") && !value.strip().matches("0+[kKmMgG]?");
    if (wellFormed) {
      return;
    }
    assertThatThrownBy(() -> VALUES.bytes("test.size", value))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageStartingWith("invalid test setting test.size: '" + value + "'");
  }

  @Test
  void refusesCountsTooLargeForTheirUnit() {
    assertThatThrownBy(() -> VALUES.bytes("k", Long.toString(Long.MAX_VALUE >> 9) + "K")).hasMessageContaining("too large");
    assertThatThrownBy(() -> VALUES.count("k", "99999999999999999999")).hasMessageContaining("too large");
    assertThatThrownBy(() -> VALUES.id("k", "4294967295")).hasMessageContaining("out of range");
  }

  @Test
  void anAbsolutePathMustBeNormalAndNotTheRoot() {
    assertThat(VALUES.absolutePath("k", " /usr/lib ")).isEqualTo(Path.of("/usr/lib"));
    assertThat(VALUES.absolutePaths("k", "/usr, ,/opt/tools")).containsExactly(Path.of("/usr"), Path.of("/opt/tools"));
    for (String bad : new String[] {"/", "usr", "/usr/../etc", "/usr/./lib", "\0"}) {
      assertThatThrownBy(() -> VALUES.absolutePath("k", bad)).as(bad).isInstanceOf(BackendUnavailableException.class);
    }
  }
}
