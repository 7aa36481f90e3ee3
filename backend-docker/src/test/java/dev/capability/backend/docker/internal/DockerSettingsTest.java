package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DockerSettingsTest {

  @Test
  void defaultsAreTheHardenedOnes() {
    DockerSettings settings = DockerSettings.defaults();

    assertThat(settings.image()).isEqualTo("capability/runtime:" + Runtime.version().feature());
    assertThat(settings.allowPull()).isFalse();
    assertThat(settings.uid()).isEqualTo(65534);
    assertThat(settings.gid()).isEqualTo(65534);
    assertThat(settings.memoryBytes()).isEqualTo(1L << 30);
    assertThat(settings.pids()).isEqualTo(512);
    assertThat(settings.nanoCpus()).isEqualTo(1_000_000_000L);
    assertThat(settings.logDriver()).isEqualTo("none");
    assertThat(settings.network()).isEqualTo("bridge");
    assertThat(settings.systemPaths()).contains(Path.of("/usr"), Path.of("/lib"));
  }

  @Test
  void readsEverySetting() {
    DockerSettings settings =
        DockerSettings.from(
            new BackendConfig(
                Map.ofEntries(
                    Map.entry("docker.image", "capability/runtime@sha256:" + "a".repeat(64)),
                    Map.entry("docker.allow-pull", "true"),
                    Map.entry("docker.uid", "1000"),
                    Map.entry("docker.gid", "1001"),
                    Map.entry("docker.limit.memory", "256M"),
                    Map.entry("docker.limit.pids", "64"),
                    Map.entry("docker.limit.cpus", "0.5"),
                    Map.entry("docker.tmp-size", "8M"),
                    Map.entry("docker.shm-size", "1M"),
                    Map.entry("docker.log-driver", "json-file"),
                    Map.entry("docker.log-max-size", "1m"),
                    Map.entry("docker.system-paths", "/usr,/opt/tools"),
                    Map.entry("docker.etc", "hosts,java-*"),
                    Map.entry("docker.network", "host"),
                    Map.entry("docker.work-dir", "/var/tmp"))));

    assertThat(settings.image()).endsWith("a".repeat(64));
    assertThat(settings.allowPull()).isTrue();
    assertThat(settings.uid()).isEqualTo(1000);
    assertThat(settings.gid()).isEqualTo(1001);
    assertThat(settings.memoryBytes()).isEqualTo(256L << 20);
    assertThat(settings.pids()).isEqualTo(64);
    assertThat(settings.nanoCpus()).isEqualTo(500_000_000L);
    assertThat(settings.tmpSizeBytes()).isEqualTo(8L << 20);
    assertThat(settings.shmSizeBytes()).isEqualTo(1L << 20);
    assertThat(settings.logDriver()).isEqualTo("json-file");
    assertThat(settings.logMaxSize()).isEqualTo("1m");
    assertThat(settings.systemPaths()).containsExactly(Path.of("/usr"), Path.of("/opt/tools"));
    assertThat(settings.etcEntries()).containsExactly("hosts", "java-*");
    assertThat(settings.network()).isEqualTo("host");
    assertThat(settings.workDirectory()).isEqualTo(Path.of("/var/tmp"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "docker.limt.memory|1G|unknown setting",
        "docker.uid|0|must be positive",
        "docker.uid|-1|not a positive whole number",
        "docker.limit.memory|lots|not a positive whole number",
        "docker.limit.cpus|0.001|between 0.01 and 1024",
        "docker.limit.cpus|many|not a number of CPUs",
        "docker.log-driver|json-file|keeps every byte",
        "docker.log-driver|syslog|not none, json-file or local",
        "docker.image|Not An Image|not an image reference",
        "docker.allow-pull|yes|not true or false",
        "docker.system-paths|usr|absolute path",
        "docker.etc|../shadow|not a plain name",
        "docker.network|container:other|not bridge or host",
        "docker.work-dir|/|absolute path"
      })
  void refusesAnInvalidSettingNamingIt(String key, String value, String why) {
    assertThatThrownBy(() -> DockerSettings.from(new BackendConfig(Map.of(key, value))))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(why)
        .extracting(e -> ((BackendUnavailableException) e).code())
        .isEqualTo(BackendUnavailableException.UNAVAILABLE);
  }

  @Test
  void theOperatorsVariableNamesTheImageWhenTheSettingDoesNotAndTheSettingWins() {
    Map<String, String> environment = Map.of("CAPABILITY_DOCKER_IMAGE", " example/tools:1 ");
    BackendConfig setting = new BackendConfig(Map.of("docker.image", "example/other:2"));

    assertThat(DockerSettings.from(BackendConfig.defaults(), environment).image()).isEqualTo("example/tools:1");
    assertThat(DockerSettings.imageSource(BackendConfig.defaults(), environment)).isEqualTo("CAPABILITY_DOCKER_IMAGE");
    assertThat(DockerSettings.from(setting, environment).image()).isEqualTo("example/other:2");
    assertThat(DockerSettings.imageSource(setting, environment)).isEqualTo("docker.image");
    assertThat(DockerSettings.from(BackendConfig.defaults(), Map.of()).image()).isEqualTo(DockerSettings.defaultImage());
    assertThat(DockerSettings.imageSource(BackendConfig.defaults(), Map.of())).isEqualTo("the default");
    assertThat(DockerSettings.from(BackendConfig.defaults()).image())
        .as("the settings alone never read the environment")
        .isEqualTo(DockerSettings.defaultImage());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"Not An Image", "''", "example/tools:1;rm", "-example"})
  void refusesAnInvalidImageVariableNamingTheVariable(String value) {
    assertThatThrownBy(() -> DockerSettings.from(BackendConfig.defaults(), Map.of("CAPABILITY_DOCKER_IMAGE", value)))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("invalid CAPABILITY_DOCKER_IMAGE in the environment")
        .hasMessageContaining("'" + value + "' is not an image reference")
        .extracting(e -> ((BackendUnavailableException) e).code())
        .isEqualTo(BackendUnavailableException.UNAVAILABLE);
  }

  @Test
  void aValidSettingIsNotRefusedForAnInvalidVariableItOverrides() {
    assertThat(
            DockerSettings.from(
                    new BackendConfig(Map.of("docker.image", "example/other:2")),
                    Map.of("CAPABILITY_DOCKER_IMAGE", "Not An Image"))
                .image())
        .isEqualTo("example/other:2");
  }

  @Test
  void theBuilderStartsFromTheDefaultsAndValidatesLikeTheRecord() {
    assertThat(DockerSettings.builder().build()).isEqualTo(DockerSettings.defaults());
    assertThat(DockerSettings.builder().pids(64).network("host").build().pids()).isEqualTo(64);
    assertThatThrownBy(() -> DockerSettings.builder().uid(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("never root");
    assertThatThrownBy(() -> DockerSettings.builder().logDriver("json-file", "").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max size");
    assertThatThrownBy(() -> DockerSettings.builder().network("container:x").build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void ignoresOtherBackendsSettings() {
    assertThat(DockerSettings.from(new BackendConfig(Map.of("bwrap.uid", "0"))).uid())
        .isEqualTo(65534);
    assertThat(DockerSettings.DEFAULT_ETC).doesNotContain("passwd", "shadow", "group");
    assertThat(List.copyOf(DockerSettings.DEFAULT_SYSTEM_PATHS)).doesNotContain(Path.of("/etc"));
  }
}
