package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BwrapSettingsTest {
  private static BwrapSettings parse(Map<String, String> settings) {
    return BwrapSettings.from(new BackendConfig(settings));
  }

  @Test
  void defaultsToNobodyAutomaticCgroupsAndNoLimits() {
    BwrapSettings settings = BwrapSettings.defaults();

    assertThat(settings.uid()).isEqualTo(65534);
    assertThat(settings.gid()).isEqualTo(65534);
    assertThat(settings.tmpSizeBytes()).isEqualTo(64L << 20);
    assertThat(settings.shmSizeBytes()).isEqualTo(16L << 20);
    assertThat(settings.hostname()).isEqualTo("sandbox");
    assertThat(settings.cgroup()).isInstanceOf(BwrapSettings.CgroupChoice.Auto.class);
    assertThat(settings.limits()).isEqualTo(ResourceLimits.NONE);
    assertThat(settings.etcEntries())
        .contains("resolv.conf", "ld.so.cache")
        .doesNotContain("passwd", "shadow");
  }

  @Test
  void readsEverySetting() {
    BwrapSettings settings =
        parse(
            Map.ofEntries(
                Map.entry("bwrap.path", "/opt/bwrap/bin/bwrap"),
                Map.entry("bwrap.uid", "40000"),
                Map.entry("bwrap.gid", "40001"),
                Map.entry("bwrap.tmp-size", "1G"),
                Map.entry("bwrap.shm-size", "512k"),
                Map.entry("bwrap.etc", "hosts, ssl ,java-*"),
                Map.entry("bwrap.read-only-paths", "/opt/jdk,/srv/tools"),
                Map.entry("bwrap.hostname", "build-box"),
                Map.entry("bwrap.cgroup", "/sys/fs/cgroup/sandboxes"),
                Map.entry("bwrap.work-dir", "/var/tmp"),
                Map.entry("bwrap.limit.memory", "512M"),
                Map.entry("bwrap.limit.pids", "100"),
                Map.entry("bwrap.limit.cpu-seconds", "30"),
                Map.entry("bwrap.limit.file-size", "10M"),
                Map.entry("bwrap.limit.open-files", "256"),
                Map.entry("bwrap.limit.address-space", "2G"),
                Map.entry("bwrap.limit.cpus", "1.5"),
                Map.entry("other.key", "ignored")));

    assertThat(settings.bwrapPath()).contains(Path.of("/opt/bwrap/bin/bwrap"));
    assertThat(settings.uid()).isEqualTo(40000);
    assertThat(settings.gid()).isEqualTo(40001);
    assertThat(settings.tmpSizeBytes()).isEqualTo(1L << 30);
    assertThat(settings.shmSizeBytes()).isEqualTo(512L << 10);
    assertThat(settings.etcEntries()).containsExactly("hosts", "ssl", "java-*");
    assertThat(settings.readOnlyPaths())
        .containsExactly(Path.of("/opt/jdk"), Path.of("/srv/tools"));
    assertThat(settings.hostname()).isEqualTo("build-box");
    assertThat(settings.cgroup())
        .isEqualTo(new BwrapSettings.CgroupChoice.Under(Path.of("/sys/fs/cgroup/sandboxes")));
    assertThat(settings.workDirectory()).isEqualTo(Path.of("/var/tmp"));
    assertThat(settings.limits())
        .isEqualTo(
            new ResourceLimits(
                OptionalLong.of(512L << 20),
                OptionalLong.of(100),
                OptionalLong.of(30),
                OptionalLong.of(10L << 20),
                OptionalLong.of(256),
                OptionalLong.of(2L << 30),
                OptionalLong.of(1500)));
    assertThat(settings.limits().prlimitOptions())
        .containsExactly(
            "--cpu=30:30",
            "--fsize=10485760:10485760",
            "--nofile=256:256",
            "--as=2147483648:2147483648");
    assertThat(parse(Map.of("bwrap.cgroup", "none")).cgroup())
        .isInstanceOf(BwrapSettings.CgroupChoice.Disabled.class);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "bwrap.limt.memory | 1M        | unknown setting",
        "bwrap.uid         | 0         | must be positive",
        "bwrap.uid         | -5        | not a positive whole number",
        "bwrap.uid         | 4294967295| out of range",
        "bwrap.gid         | nobody    | not a positive whole number",
        "bwrap.tmp-size    | 0         | must be positive",
        "bwrap.tmp-size    | 12X       | not a positive whole number",
        "bwrap.tmp-size    | 99999999999999999G | too large",
        "bwrap.path        | bwrap     | absolute path",
        "bwrap.path        | /usr/../tmp/bwrap | absolute path",
        "bwrap.etc         | ../shadow | plain name",
        "bwrap.etc         | ssl/private | plain name",
        "bwrap.hostname    | -bad-     | host name",
        "bwrap.cgroup      | sometimes | absolute path",
        "bwrap.read-only-paths | /opt,relative | absolute path",
        "bwrap.limit.pids  | many      | not a positive whole number",
        "bwrap.limit.cpus  | 0.001     | at least 0.01",
        "bwrap.limit.cpus  | 1.5.2     | not a number of CPUs",
        "bwrap.limit.cpus  | -1        | not a number of CPUs"
      })
  void rejectsAnInvalidSettingByName(String key, String value, String why) {
    assertThatThrownBy(() -> parse(Map.of(key, value)))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(why)
        .extracting(e -> ((BackendUnavailableException) e).code())
        .isEqualTo(BackendUnavailableException.UNAVAILABLE);
  }

  @Test
  void limitsKnowWhichMechanismTheyNeed() {
    ResourceLimits rlimitsOnly = parse(Map.of("bwrap.limit.open-files", "10")).limits();
    ResourceLimits cgroupOnly = parse(Map.of("bwrap.limit.pids", "10")).limits();

    assertThat(rlimitsOnly.needsRlimits()).isTrue();
    assertThat(rlimitsOnly.needsCgroup()).isFalse();
    assertThat(cgroupOnly.needsRlimits()).isFalse();
    assertThat(cgroupOnly.needsCgroup()).isTrue();
    assertThat(cgroupOnly.prlimitOptions()).as("never RLIMIT_NPROC, a per-uid limit").isEmpty();
    assertThat(List.of(ResourceLimits.NONE.needsCgroup(), ResourceLimits.NONE.needsRlimits()))
        .containsOnly(false);
  }
}
