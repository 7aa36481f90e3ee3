package dev.capability.backend.bwrap.internal;

import static dev.capability.backend.bwrap.internal.Sandboxes.openDirectory;
import static dev.capability.backend.bwrap.internal.Sandboxes.script;
import static dev.capability.backend.bwrap.internal.Sandboxes.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.support.ExecArgumentLimit;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arguments and environments beyond what the kernel's {@code execve} takes are refused before a
 * sandbox starts, with {@code ARGUMENT_LIST_TOO_LONG}, not left to fail inside the launcher.
 */
class BwrapArgumentLimitTest {
  private static final BackendGate GATE = Sandboxes.gate();

  @TempDir Path tmp;
  private Path repo;
  private PinnedExecutable counter;

  @BeforeEach
  void layout() {
    GATE.backend();
    openDirectory(tmp);
    repo = openDirectory(tmp.resolve("repo"));
    counter = script(openDirectory(tmp.resolve("bin")), "echo $#");
  }

  @AfterAll
  static void close() {
    GATE.close();
  }

  private LaunchResult launch(List<String> arguments, Map<String, String> environment) {
    return GATE.backend()
        .launch(spec(counter, repo).arguments(arguments).environment(environment).build());
  }

  @Test
  void oneArgumentOverTheKernelsLimitForOneStringIsRefusedWithACode() {
    LaunchResult control =
        launch(List.of("a".repeat(128 * 1024 - 1)), Map.of("PATH", "/usr/bin:/bin"));

    assertThat(control.stdout().text()).isEqualTo("1\n");
    assertThatThrownBy(
            () -> launch(List.of("a".repeat(128 * 1024)), Map.of("PATH", "/usr/bin:/bin")))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("takes 131073 bytes, over the 131072 Linux allows one argument")
        .hasMessageContaining("refused before anything was started");
  }

  @Test
  void anEnvironmentVariableOverTheLimitForOneStringIsRefusedWithACode() {
    assertThatThrownBy(
            () -> launch(List.of(), Map.of("PATH", "/usr/bin:/bin", "BIG", "v".repeat(128 * 1024))))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("environment variable BIG takes");
  }

  @Test
  void argumentsOverTheKernelsTotalAreRefusedWithACode() {
    long limit = ExecArgumentLimit.inheritedFromThisProcess("in the sandbox").maxBytes();
    int count = (int) (limit / (64 * 1024)) + 2;
    List<String> tooMany = new ArrayList<>(Collections.nCopies(count, "a".repeat(64 * 1024 - 1)));
    List<String> fitting = tooMany.subList(0, count - 4);

    LaunchResult control = launch(fitting, Map.of("PATH", "/usr/bin:/bin"));

    assertThat(control.stdout().text()).isEqualTo((count - 4) + "\n");
    assertThatThrownBy(() -> launch(tooMany, Map.of("PATH", "/usr/bin:/bin")))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("over the " + limit + " an execve in the sandbox accepts");
  }
}
