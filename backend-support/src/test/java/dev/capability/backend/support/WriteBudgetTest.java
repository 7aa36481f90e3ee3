package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteBudgetTest {
  private static final int MIB = 1 << 20;

  @TempDir Path root;

  private LaunchSpec spec(long maxWriteBytes) {
    return LaunchSpec.builder(
            new PinnedExecutable(
                Path.of("/usr/bin/true"), "0".repeat(64), "/usr/bin/true", PinnedExecutable.Pinning.PROC_FD))
        .workingDirectory(root)
        .writableRoots(List.of(root))
        .maxWriteBytes(maxWriteBytes)
        .build();
  }

  @Test
  void whatTheRootsHeldBeforeTheRunIsNotCharged() throws Exception {
    Files.write(root.resolve("before"), new byte[8 * MIB]);
    AtomicInteger stops = new AtomicInteger();

    try (WriteBudget budget = WriteBudget.watch(spec(2 * MIB), stops::incrementAndGet)) {
      Files.write(root.resolve("during"), new byte[MIB]);

      assertThat(budget.finish()).isFalse();
    }
    assertThat(stops).hasValue(0);
  }

  @Test
  void growthBeyondTheBudgetStopsTheRunWhileItRuns() throws Exception {
    CountDownLatch stopped = new CountDownLatch(1);
    try (WriteBudget budget = WriteBudget.watch(spec(2 * MIB), stopped::countDown)) {
      Files.createDirectories(root.resolve("deep/er"));
      Files.write(root.resolve("deep/er/big"), new byte[3 * MIB]);

      assertThat(stopped.await(1, TimeUnit.MINUTES)).isTrue();
      assertThat(budget.exceeded()).isTrue();
      assertThat(budget.reason()).hasValueSatisfying(r -> assertThat(r).contains("more than the budget of 2097152"));
    }
  }

  @Test
  void theLastMeasurementCatchesAWriteMadeJustBeforeTheEnd() throws Exception {
    AtomicInteger stops = new AtomicInteger();
    WriteBudget budget = WriteBudget.watch(spec(2 * MIB), stops::incrementAndGet);
    Files.write(root.resolve("big"), new byte[3 * MIB]);

    assertThat(budget.finish()).isTrue();
    assertThat(budget.finish()).isTrue();
    assertThat(stops).hasValue(1);
  }

  @Test
  void aSparseFileCountsByItsBlocksAndHardLinksOnce() throws Exception {
    AtomicInteger stops = new AtomicInteger();
    WriteBudget budget = WriteBudget.watch(spec(2 * MIB), stops::incrementAndGet);
    try (RandomAccessFile file = new RandomAccessFile(root.resolve("sparse").toFile(), "rw")) {
      file.setLength(1L << 40);
    }
    Path data = Files.write(root.resolve("data"), new byte[MIB + MIB / 2]);
    Files.createLink(root.resolve("again"), data);
    Files.createSymbolicLink(root.resolve("link"), Path.of("/usr"));

    assertThat(budget.finish()).as(budget.reason().orElse("")).isFalse();
    assertThat(stops).hasValue(0);
  }

  @Test
  void noRootsNothingToMeasure() {
    LaunchSpec none = spec(1).toBuilder().writableRoots(List.of()).build();
    try (WriteBudget budget = WriteBudget.watch(none, () -> {
      throw new AssertionError("nothing to exceed");
    })) {
      assertThat(budget.finish()).isFalse();
    }
  }
}
