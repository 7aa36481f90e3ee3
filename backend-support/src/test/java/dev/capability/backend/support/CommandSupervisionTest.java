package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.support.CommandSupervision.Stop;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandSupervisionTest {
  private static final long WAKE = TimeUnit.MILLISECONDS.toNanos(100);
  private static final Deadline FAR = Deadline.after(Duration.ofMinutes(10));

  @TempDir Path root;

  private final CountDownLatch stopped = new CountDownLatch(1);
  private Process process;

  @AfterEach
  void endTheProcess() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  private CommandSupervision start(long maxOutputBytes, String... command) throws IOException {
    process = new ProcessBuilder(command).start();
    process.getOutputStream().close();
    return CommandSupervision.start(process, "command", "test", maxOutputBytes, stopped);
  }

  private WriteBudget budget() {
    return WriteBudget.watch(
        LaunchSpec.builder(
                new PinnedExecutable(
                    Path.of("/usr/bin/true"),
                    "0".repeat(64),
                    "/usr/bin/true",
                    PinnedExecutable.Pinning.PROC_FD))
            .workingDirectory(root)
            .writableRoots(List.of(root))
            .build(),
        stopped::countDown);
  }

  @Test
  void aCommandThatExitsIsSeenThroughWithItsStatusAndOutput() throws IOException {
    CommandSupervision supervision = start(1000, "echo", "hello");

    try (WriteBudget budget = budget()) {
      assertThat(supervision.waitForStop(FAR, budget, WAKE, () -> {})).isEqualTo(Stop.EXITED);
    }

    Deadline settled = Deadline.after(Duration.ofSeconds(30));
    assertThat(supervision.exitCode(settled)).isEqualTo(OptionalInt.of(0));
    assertThat(supervision.stdout(settled).text()).isEqualTo("hello\n");
    assertThat(supervision.stderr(settled).size()).isZero();
    assertThat(supervision.outputLimitHit()).isFalse();
  }

  @Test
  void endlessOutputStopsTheWaitAtTheBound() throws IOException {
    CommandSupervision supervision = start(1000, "cat", "/dev/zero");

    try (WriteBudget budget = budget()) {
      assertThat(supervision.waitForStop(FAR, budget, WAKE, () -> {}))
          .isEqualTo(Stop.OUTPUT_LIMIT);
    }
    process.destroyForcibly();

    Deadline settled = Deadline.after(Duration.ofSeconds(30));
    assertThat(supervision.outputLimitHit()).isTrue();
    assertThat(supervision.stdout(settled).size()).isEqualTo(1000);
    assertThat(supervision.stdout(settled).truncated()).isTrue();
  }

  @Test
  void aPassedDeadlineStopsTheWaitOnALiveCommandAndTheWakeHookRunsMeanwhile()
      throws IOException {
    CommandSupervision supervision = start(1000, "sleep", "600");
    AtomicInteger wakes = new AtomicInteger();

    try (WriteBudget budget = budget()) {
      assertThat(
              supervision.waitForStop(
                  Deadline.after(Duration.ofSeconds(1)), budget, WAKE, wakes::incrementAndGet))
          .isEqualTo(Stop.TIMEOUT);
    }

    assertThat(wakes).as("woken by the wake period, not by the command").hasPositiveValue();
    assertThat(process.isAlive()).as("ending the command is the caller's").isTrue();
  }
}
