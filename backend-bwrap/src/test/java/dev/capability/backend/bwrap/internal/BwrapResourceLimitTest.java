package dev.capability.backend.bwrap.internal;

import static dev.capability.backend.bwrap.internal.Sandboxes.openDirectory;
import static dev.capability.backend.bwrap.internal.Sandboxes.script;
import static dev.capability.backend.bwrap.internal.Sandboxes.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resource attacks from inside real sandboxes with memory and process limits configured: a fork
 * bomb, a large allocation and a huge file. Each runs with a control where the limit is absent or
 * larger, so no assertion passes because the attack itself failed.
 */
class BwrapResourceLimitTest {
  private static final Map<String, String> LIMITS =
      Map.of("bwrap.limit.memory", "64M", "bwrap.limit.pids", "64");

  @TempDir Path tmp;

  private Path repo;
  private Path writable;
  private Path bin;

  @BeforeEach
  void layout() {
    try (BackendGate gate = Sandboxes.gate()) {
      gate.backend();
    }
    openDirectory(tmp);
    repo = openDirectory(tmp.resolve("repo"));
    writable = Sandboxes.writableBy(repo.resolve("out"), Sandboxes.identity());
    bin = openDirectory(tmp.resolve("bin"));
  }

  /**
   * A backend with memory and process limits; skips where cgroups cannot be written (no delegated
   * cgroup v2, and not root for cgroup v1) unless every backend is required.
   */
  private static BwrapBackend limited() {
    try {
      return Sandboxes.backend(LIMITS);
    } catch (BackendUnavailableException e) {
      String reason = "memory and process limits are not available here: " + e.getMessage();
      if ("1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE))) {
        fail(reason + " (" + BackendGate.REQUIRE_VARIABLE + "=1 requires them)");
      }
      Assumptions.abort(reason);
      throw e;
    }
  }

  @Test
  void advertisesTheConfiguredLimitsAndByDefaultAProcessLimitButNoMemoryLimit() {
    try (BwrapBackend limited = limited();
        BwrapBackend plain = Sandboxes.backend(Map.of())) {
      assertThat(plain.capabilities())
          .contains(IsolationCapability.PID_LIMIT)
          .doesNotContain(IsolationCapability.MEMORY_LIMIT);
      assertThat(plain.diagnostics().get("PID_LIMIT"))
          .isEqualTo("pids.max " + BwrapSettings.DEFAULT_PIDS + " per run");
      assertThat(limited.capabilities())
          .contains(IsolationCapability.MEMORY_LIMIT, IsolationCapability.PID_LIMIT);
      assertThat(limited.diagnostics().get("PID_LIMIT")).isEqualTo("pids.max 64 per run");
    }
  }

  @Test
  void aSpecRequiringAMemoryLimitIsRefusedWhenNoneIsConfigured() {
    try (BwrapBackend plain = Sandboxes.backend(Map.of())) {
      assertThatThrownBy(
              () ->
                  plain.launch(
                      spec(script(bin, "touch out/ran"), repo)
                          .writableRoots(List.of(writable))
                          .requiredCapabilities(Set.of(IsolationCapability.MEMORY_LIMIT))
                          .build()))
          .isInstanceOfSatisfying(
              BackendUnavailableException.class,
              e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
          .hasMessageContaining("MEMORY_LIMIT");
      assertThat(writable.resolve("ran")).doesNotExist();
    }
  }

  @Test
  void aForkBombCannotStartMoreProcessesThanThePidsLimit() throws Exception {
    // Each started process is counted with builtins only, in a file the host reads afterwards,
    // since the shell itself may die when its fork is refused.
    String bomb =
        "i=0; while [ $i -lt 600 ]; do sleep 30 & i=$((i+1)); echo $i > out/started; done";
    try (BwrapBackend plain = Sandboxes.backend(Map.of());
        BwrapBackend limited = limited()) {
      plain.launch(
          spec(script(bin, bomb), repo)
              .writableRoots(List.of(writable))
              .timeout(Duration.ofSeconds(60))
              .build());
      String control = Files.readString(writable.resolve("started"));
      Files.delete(writable.resolve("started"));
      LaunchResult attack =
          limited.launch(
              spec(script(bin, bomb), repo)
                  .writableRoots(List.of(writable))
                  .timeout(Duration.ofSeconds(60))
                  .build());

      assertThat(control).as("without a limit all 600 start").isEqualTo("600\n");
      assertThat(Integer.parseInt(Files.readString(writable.resolve("started")).strip()))
          .as("the run's cgroup holds at most 64 processes, the shell among them: " + attack)
          .isLessThan(64)
          .isPositive();
      assertThat(attack.timedOut()).isFalse();
    }
  }

  @Test
  void aForkBombUnderTheDefaultSettingsStopsAtTheDefaultProcessLimit() throws Exception {
    String bomb =
        "i=0; while [ $i -lt 1500 ]; do sleep 60 & i=$((i+1)); echo $i > out/started; done";
    limited().close();
    try (BwrapBackend plain = Sandboxes.backend(Map.of())) {
      LaunchResult attack =
          plain.launch(
              spec(script(bin, bomb), repo)
                  .writableRoots(List.of(writable))
                  .timeout(Duration.ofSeconds(60))
                  .build());

      assertThat(Integer.parseInt(Files.readString(writable.resolve("started")).strip()))
          .as("the run's cgroup holds at most the default number of processes: " + attack)
          .isLessThan((int) BwrapSettings.DEFAULT_PIDS)
          .isGreaterThan(600);
    }
  }

  @Test
  void anAllocationBeyondTheMemoryLimitIsKilledAndReportedAsTheMemoryLimit() {
    // The shell keeps a command substitution's whole output in its own memory.
    String allocate =
        "x=$(head -c " + (200L << 20) + " /dev/zero | tr '\\0' a); echo ${#x}";
    String small = "x=$(head -c " + (8L << 20) + " /dev/zero | tr '\\0' a); echo ${#x}";
    try (BwrapBackend limited = limited()) {
      LaunchResult control =
          limited.launch(spec(script(bin, small), repo).timeout(Duration.ofSeconds(60)).build());
      LaunchResult attack =
          limited.launch(spec(script(bin, allocate), repo).timeout(Duration.ofSeconds(60)).build());

      assertThat(control.stdout().text()).isEqualTo((8L << 20) + "\n");
      assertThat(control.memoryLimitHit()).isFalse();
      assertThat(attack.memoryLimitHit()).isTrue();
      assertThat(attack.stdout().text()).doesNotContain(Long.toString(200L << 20));
      assertThat(attack.timedOut()).isFalse();
    }
  }

  @Test
  void aFileCannotGrowBeyondTheSpecsMaxFileBytes() throws Exception {
    String writer =
        "trap '' XFSZ; head -c 20971520 /dev/zero > out/big 2>/dev/null; echo $?;"
            + " truncate -s 1T out/sparse 2>/dev/null; echo $?; ulimit -f";
    try (BwrapBackend plain = Sandboxes.backend(Map.of())) {
      LaunchResult control =
          plain.launch(
              spec(script(bin, writer), repo)
                  .writableRoots(List.of(writable))
                  .maxFileBytes(1L << 40)
                  .build());
      long controlSize = Files.size(writable.resolve("big"));
      long controlSparse = Files.size(writable.resolve("sparse"));
      Files.delete(writable.resolve("big"));
      Files.delete(writable.resolve("sparse"));
      LaunchResult attack =
          plain.launch(
              spec(script(bin, writer), repo)
                  .writableRoots(List.of(writable))
                  .maxFileBytes(10L << 20)
                  .build());

      assertThat(control.stdout().text()).isEqualTo("0\n0\n" + ((1L << 40) / 512) + "\n");
      assertThat(List.of(controlSize, controlSparse)).containsExactly(20L << 20, 1L << 40);
      assertThat(attack.stdout().text()).isEqualTo("1\n1\n" + ((10L << 20) / 512) + "\n");
      assertThat(Files.size(writable.resolve("big"))).isEqualTo(10L << 20);
      assertThat(Files.size(writable.resolve("sparse"))).isZero();
    }
  }

  @Test
  void theRunCgroupsAreRemovedAfterTheRun() throws Exception {
    try (BwrapBackend limited = limited()) {
      LaunchResult result =
          limited.launch(spec(script(bin, "cat /proc/self/cgroup"), repo).build());

      assertThat(result.exitCode()).hasValue(0);
      List<Path> runs =
          limited.diagnostics().get("cgroup").contains("v1 at")
              ? List.of(
                  LegacyCgroups.own("pids").orElseThrow(),
                  LegacyCgroups.own("memory").orElseThrow())
              : List.of();
      for (Path parent : runs) {
        try (var children = Files.list(parent)) {
          assertThat(children.map(p -> p.getFileName().toString()))
              .noneMatch(name -> name.startsWith("capability-run-"));
        }
      }
    }
  }
}
