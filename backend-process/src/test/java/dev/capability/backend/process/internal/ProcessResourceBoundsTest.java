package dev.capability.backend.process.internal;

import static dev.capability.backend.process.internal.CommandFixtures.newMarker;
import static dev.capability.backend.process.internal.CommandFixtures.processesWithMarker;
import static dev.capability.backend.process.internal.CommandFixtures.script;
import static dev.capability.backend.process.internal.CommandFixtures.sessionBackend;
import static dev.capability.backend.process.internal.CommandFixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.ResourceBound;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disk attacks on the process backend end with the bound they hit, reported in the result; argv
 * beyond what the kernel's execve takes is refused with a code.
 */
class ProcessResourceBoundsTest {
  @TempDir Path dir;

  private final ProcessBackend backend = sessionBackend();

  @Test
  void advertisesTheFileSizeLimitAndTheWriteBudget() {
    assertThat(backend.capabilities())
        .contains(IsolationCapability.FILE_SIZE_LIMIT, IsolationCapability.WRITE_BUDGET);
  }

  @Test
  void argumentsBeyondTheKernelsExecveLimitsAreRefusedWithACodeBeforeLaunch() {
    LaunchResult control =
        backend.launch(
            spec(script(dir, "echo $#"), dir, newMarker())
                .arguments(List.of("a".repeat(128 * 1024 - 1)))
                .build());

    assertThat(control.stdout().text()).isEqualTo("1\n");
    assertThatThrownBy(
            () ->
                backend.launch(
                    spec(script(dir, "echo $#"), dir, newMarker())
                        .arguments(List.of("a".repeat(128 * 1024)))
                        .build()))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("over the 131072 Linux allows one argument");
    assertThatThrownBy(
            () ->
                backend.launch(
                    spec(script(dir, "echo $#"), dir, newMarker())
                        .arguments(Collections.nCopies(200, "a".repeat(64 * 1024 - 1)))
                        .build()))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("an execve by this JVM's children accepts");
  }

  @Test
  void aCommandEndedBySigxfszIsReportedAsTheFileSizeBound() throws Exception {
    LaunchResult control =
        backend.launch(
            spec(script(dir, "exec head -c 2097152 /dev/zero > small"), dir, newMarker())
                .maxFileBytes(10L << 20)
                .build());
    LaunchResult big =
        backend.launch(
            spec(script(dir, "exec head -c 20971520 /dev/zero > big"), dir, newMarker())
                .maxFileBytes(10L << 20)
                .build());
    LaunchResult sparse =
        backend.launch(
            spec(script(dir, "exec truncate -s 1T sparse"), dir, newMarker())
                .maxFileBytes(10L << 20)
                .build());

    assertThat(control.exitCode()).hasValue(0);
    assertThat(control.boundsHit()).isEmpty();
    assertThat(big.exitCode()).hasValue(128 + 25);
    assertThat(big.boundsHit()).containsExactly(ResourceBound.FILE_SIZE);
    assertThat(Files.size(dir.resolve("big"))).isEqualTo(10L << 20);
    assertThat(sparse.exitCode()).hasValue(128 + 25);
    assertThat(sparse.boundsHit()).containsExactly(ResourceBound.FILE_SIZE);
    assertThat(Files.size(dir.resolve("sparse"))).isZero();
  }

  @Test
  void writingPastTheWriteBudgetEndsTheCommandAndIsReported() throws Exception {
    Path root = Files.createDirectory(dir.resolve("out"));
    String marker = newMarker();
    LaunchResult control =
        backend.launch(
            spec(script(dir, "head -c " + (10L << 20) + " /dev/zero > out/small"), dir, newMarker())
                .writableRoots(List.of(root))
                .maxWriteBytes(50L << 20)
                .build());
    // 200 MiB into the root with a 50 MiB budget; then it waits, so only the budget ends it.
    LaunchResult attack =
        backend.launch(
            spec(
                    script(dir, "head -c " + (200L << 20) + " /dev/zero > out/big; exec sleep 120"),
                    dir,
                    marker)
                .writableRoots(List.of(root))
                .maxWriteBytes(50L << 20)
                .timeout(Duration.ofMinutes(5))
                .build());

    assertThat(control.exitCode()).hasValue(0);
    assertThat(control.boundsHit()).isEmpty();
    assertThat(attack.boundsHit()).as(attack.toString()).contains(ResourceBound.WRITE_BUDGET);
    assertThat(attack.timedOut()).isFalse();
    assertThat(attack.termination()).isNotEqualTo(RunningCommand.NONE);
    assertThat(processesWithMarker(marker)).isEmpty();
  }
}
