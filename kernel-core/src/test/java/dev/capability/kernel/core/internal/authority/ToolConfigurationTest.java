package dev.capability.kernel.core.internal.authority;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ToolConfigurationPin;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolConfigurationTest {

  private static final String JVM_CONFIG = "-Xmx512m\n";

  @TempDir Path repository;

  @BeforeEach
  void mavenConfiguration() throws IOException {
    Files.createDirectories(repository.resolve(".mvn"));
    Files.writeString(repository.resolve(".mvn/jvm.config"), JVM_CONFIG);
  }

  private static ExecutableRule mvn(Map<String, ToolConfigurationPin> files) {
    ExecutableRule.Builder rule = ExecutableRule.named("mvn").exact("-q", "test");
    files.forEach(rule::toolConfiguration);
    return rule.build();
  }

  @Test
  void hashesEveryNamedFileAndRecordsTheAbsentOnes() {
    ToolConfiguration.State state = ToolConfiguration.inspect(repository, mvn(Map.of(
        ".mvn/jvm.config", ToolConfigurationPin.recorded(),
        ".mvn/maven.config", ToolConfigurationPin.recorded(),
        ".mvn/extensions.xml", ToolConfigurationPin.absent())));

    assertThat(state.decision().allowed()).isTrue();
    assertThat(state.files()).containsExactly(
        Map.entry(".mvn/extensions.xml", "absent"),
        Map.entry(".mvn/jvm.config", Sha256.hex(JVM_CONFIG.getBytes(StandardCharsets.UTF_8))),
        Map.entry(".mvn/maven.config", "absent"));
  }

  @Test
  void aPinnedHashMustMatch() throws IOException {
    String pinned = Sha256.hex(JVM_CONFIG.getBytes(StandardCharsets.UTF_8));
    ExecutableRule rule = mvn(Map.of(".mvn/jvm.config", ToolConfigurationPin.sha256(pinned)));
    assertThat(ToolConfiguration.inspect(repository, rule).decision().allowed()).isTrue();

    Files.writeString(repository.resolve(".mvn/jvm.config"), "-javaagent:evil.jar\n");
    ToolConfiguration.State changed = ToolConfiguration.inspect(repository, rule);

    assertThat(changed.decision().code()).isEqualTo("TOOL_CONFIGURATION_MISMATCH");
    assertThat(changed.decision().layer()).isEqualTo("operator");
    assertThat(changed.decision().rule()).isEqualTo("executables.mvn.toolConfiguration");
    assertThat(changed.decision().message()).contains(".mvn/jvm.config", pinned);
    assertThat(changed.files().get(".mvn/jvm.config")).isNotEqualTo(pinned);

    Files.delete(repository.resolve(".mvn/jvm.config"));
    assertThat(ToolConfiguration.inspect(repository, rule).decision().message()).contains("is absent");
  }

  @Test
  void aFileThatMustBeAbsentRefusesTheCommandWhenPresent() throws IOException {
    Files.writeString(repository.resolve(".mvn/extensions.xml"), "<extensions/>");

    ToolConfiguration.State state = ToolConfiguration.inspect(repository, mvn(Map.of(".mvn/extensions.xml", ToolConfigurationPin.absent())));

    assertThat(state.decision().code()).isEqualTo("TOOL_CONFIGURATION_MISMATCH");
    assertThat(state.decision().message()).contains("must be absent");
  }

  @Test
  void aFileReachedThroughALinkIsNeverRead(@TempDir Path elsewhere) throws IOException {
    Files.writeString(elsewhere.resolve("maven.config"), "-Dx=y");
    Files.createSymbolicLink(repository.resolve(".mvn/maven.config"), elsewhere.resolve("maven.config"));
    Files.createSymbolicLink(repository.resolve("conf"), elsewhere);

    ToolConfiguration.State file = ToolConfiguration.inspect(repository, mvn(Map.of(".mvn/maven.config", ToolConfigurationPin.recorded())));
    ToolConfiguration.State parent = ToolConfiguration.inspect(repository, mvn(Map.of("conf/maven.config", ToolConfigurationPin.recorded())));

    assertThat(file.decision().code()).isEqualTo("TOOL_CONFIGURATION_UNREADABLE");
    assertThat(file.files()).containsEntry(".mvn/maven.config", "unreadable");
    assertThat(parent.decision().code()).isEqualTo("TOOL_CONFIGURATION_UNREADABLE");
    assertThat(parent.decision().message()).contains("symbolic link", "\"conf\"");
  }

  @Test
  void aPipeADirectoryOrAHugeFileIsRefusedWithoutReadingIt() throws IOException, InterruptedException {
    Process mkfifo = new ProcessBuilder("mkfifo", repository.resolve(".mvn/maven.config").toString()).start();
    assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
    Files.createDirectories(repository.resolve(".mvn/extensions.xml"));
    Files.write(repository.resolve("huge.config"), new byte[(int) ToolConfiguration.MAX_BYTES + 1]);

    assertThat(ToolConfiguration.inspect(repository, mvn(Map.of(".mvn/maven.config", ToolConfigurationPin.recorded()))).decision().message())
        .contains("not a regular file");
    assertThat(ToolConfiguration.inspect(repository, mvn(Map.of(".mvn/extensions.xml", ToolConfigurationPin.absent()))).decision().code())
        .isEqualTo("TOOL_CONFIGURATION_UNREADABLE");
    assertThat(ToolConfiguration.inspect(repository, mvn(Map.of("huge.config", ToolConfigurationPin.recorded()))).decision().message())
        .contains("at most");
  }

  @Test
  void theFirstFileInPathOrderDecides() throws IOException {
    Files.writeString(repository.resolve(".mvn/extensions.xml"), "<extensions/>");

    ToolConfiguration.State state = ToolConfiguration.inspect(repository, mvn(Map.of(
        ".mvn/jvm.config", ToolConfigurationPin.absent(),
        ".mvn/extensions.xml", ToolConfigurationPin.absent())));

    assertThat(state.decision().message()).contains(".mvn/extensions.xml");
    assertThat(state.files()).hasSize(2);
  }
}
