package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.ResourceBound;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Resource attacks, each against a backend that advertises the capability covering it, and each
 * required to end with the bound reported in {@link LaunchResult#boundsHit()}: a run that writes
 * past the write budget ({@code WRITE_BUDGET}), a file past {@code maxFileBytes} and a 1 TiB sparse
 * file ({@code FILE_SIZE_LIMIT}), a fork bomb ({@code PID_LIMIT}), an allocation past the memory
 * limit ({@code MEMORY_LIMIT}) and 200,000 empty files in {@code /tmp} ({@code PRIVATE_TMP} with
 * {@code MEMORY_LIMIT}). A test whose capability is not advertised is skipped, and so are the
 * process, memory and {@code /tmp} attacks while the test class does not say the limits its
 * backend was configured with ({@link #processLimit()}, {@link #memoryLimitBytes()}): the suite
 * cannot know them. Every attack is sized to stay small (tens of MiB, at most a few thousand
 * processes).
 */
public interface ResourceContract extends BackendUnderTest {

  /**
   * The per-run process limit the backend under test enforces when it advertises {@code
   * PID_LIMIT}; empty (the default) skips the fork bomb. Keep it small (the bomb starts this many
   * processes and a few more).
   */
  default OptionalLong processLimit() {
    return OptionalLong.empty();
  }

  /**
   * Whether a refused fork is reported as {@link ResourceBound#PROCESSES}. A backend that bounds
   * processes but cannot tell (Docker: the daemon reports nothing, and the container's cgroup is
   * gone once it stops) returns false, and its documentation says so.
   */
  default boolean reportsProcessLimitHits() {
    return true;
  }

  /**
   * The per-run memory limit in bytes the backend under test enforces when it advertises {@code
   * MEMORY_LIMIT}; empty (the default) skips the memory and {@code /tmp} attacks. At most 128 MiB,
   * since the attacks allocate past it.
   */
  default OptionalLong memoryLimitBytes() {
    return OptionalLong.empty();
  }

  @Test
  default void writingPastTheWriteBudgetEndsTheRunWithTheBound() {
    requireAdvertised(IsolationCapability.WRITE_BUDGET);
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      // 32 MiB in 4 MiB files into the writable root, then wait: only the budget can end it early.
      Path writer =
          workspace.script(
              "writer.sh",
              "i=0; while [ $i -lt \"$1\" ]; do head -c 4194304 /dev/zero > writable/f$i || exit 3;"
                  + " i=$((i+1)); done; echo written; [ \"$2\" = wait ] && exec sleep 60; exit 0");

      LaunchResult control =
          launches.run(
              launches
                  .spec(writer, "1", "exit")
                  .writableRoots(List.of(workspace.writable()))
                  .maxWriteBytes(8L << 20)
                  .build());
      LaunchResult attack =
          launches.run(
              launches
                  .spec(writer, "8", "wait")
                  .writableRoots(List.of(workspace.writable()))
                  .maxWriteBytes(8L << 20)
                  .timeout(Duration.ofMinutes(2))
                  .build());

      assertThat(control.exitCode()).as(control.stderr().text()).hasValue(0);
      assertThat(control.boundsHit()).as("4 MiB within an 8 MiB budget").isEmpty();
      assertThat(attack.boundsHit()).as(attack.toString()).contains(ResourceBound.WRITE_BUDGET);
      assertThat(attack.timedOut()).as("ended by the budget, not the timeout").isFalse();
      assertThat(attack.termination()).as("the backend ended the run").isNotEqualTo("none");
    }
  }

  @Test
  default void aFilePastMaxFileBytesEndsTheCommandWithTheBound() {
    requireAdvertised(IsolationCapability.FILE_SIZE_LIMIT);
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path big = workspace.script("big.sh", "exec head -c \"$1\" /dev/zero > writable/big");
      Path sparse = workspace.script("sparse.sh", "exec truncate -s 1T writable/sparse");

      LaunchResult control =
          launches.run(
              launches
                  .spec(big, "524288")
                  .writableRoots(List.of(workspace.writable()))
                  .maxFileBytes(1L << 20)
                  .build());
      LaunchResult attack =
          launches.run(
              launches
                  .spec(big, "4194304")
                  .writableRoots(List.of(workspace.writable()))
                  .maxFileBytes(1L << 20)
                  .build());
      LaunchResult sparseAttack =
          launches.run(
              launches
                  .spec(sparse)
                  .writableRoots(List.of(workspace.writable()))
                  .maxFileBytes(1L << 20)
                  .build());

      assertThat(control.exitCode()).as(control.stderr().text()).hasValue(0);
      assertThat(control.boundsHit()).isEmpty();
      assertThat(attack.exitCode()).as("ended by SIGXFSZ").hasValue(128 + 25);
      assertThat(attack.boundsHit()).contains(ResourceBound.FILE_SIZE);
      assertThat(size(workspace.writable().resolve("big"))).isEqualTo(1L << 20);
      assertThat(sparseAttack.exitCode()).as(sparseAttack.stderr().text()).hasValue(128 + 25);
      assertThat(sparseAttack.boundsHit()).contains(ResourceBound.FILE_SIZE);
      assertThat(size(workspace.writable().resolve("sparse"))).isZero();
    }
  }

  @Test
  default void aForkBombStopsAtTheProcessLimitWithTheBound() {
    requireAdvertised(IsolationCapability.PID_LIMIT);
    long limit = requireConfigured(processLimit(), "processLimit()");
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      // Counted with builtins in a file, since the shell may die when its fork is refused.
      Path bomb =
          workspace.script(
              "bomb.sh",
              "i=0; while [ $i -lt \"$1\" ]; do sleep 60 & i=$((i+1)); echo $i > writable/started;"
                  + " done; exit 0");

      LaunchResult attack =
          launches.run(
              launches
                  .spec(bomb, Long.toString(limit + 32))
                  .writableRoots(List.of(workspace.writable()))
                  .timeout(Duration.ofMinutes(2))
                  .build());

      assertThat(Long.parseLong(read(workspace.writable().resolve("started"))))
          .as("processes started under a limit of %d, the shell among them: %s", limit, attack)
          .isLessThan(limit);
      assertThat(attack.timedOut()).isFalse();
      if (reportsProcessLimitHits()) {
        assertThat(attack.boundsHit()).contains(ResourceBound.PROCESSES);
      }
    }
  }

  @Test
  default void anAllocationPastTheMemoryLimitEndsWithTheBound() {
    requireAdvertised(IsolationCapability.MEMORY_LIMIT);
    long limit = requireConfigured(memoryLimitBytes(), "memoryLimitBytes()");
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      // The shell keeps a command substitution's whole output in its own memory.
      Path allocate =
          workspace.script(
              "allocate.sh", "x=$(head -c \"$1\" /dev/zero | tr '\\0' a); echo ${#x}");

      LaunchResult control =
          launches.run(launches.spec(allocate, Long.toString(limit / 8)).build());
      LaunchResult attack =
          launches.run(
              launches
                  .spec(allocate, Long.toString(2 * limit))
                  .timeout(Duration.ofMinutes(2))
                  .build());

      assertThat(control.stdout().text()).isEqualTo((limit / 8) + "\n");
      assertThat(control.boundsHit()).isEmpty();
      assertThat(attack.boundsHit()).as(attack.toString()).contains(ResourceBound.MEMORY);
      assertThat(attack.stdout().text()).doesNotContain(Long.toString(2 * limit));
      assertThat(attack.timedOut()).isFalse();
    }
  }

  @Test
  default void twoHundredThousandFilesInTmpEndBounded() {
    requireAdvertised(IsolationCapability.PRIVATE_TMP);
    requireAdvertised(IsolationCapability.MEMORY_LIMIT);
    requireConfigured(memoryLimitBytes(), "memoryLimitBytes()");
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      // Empty files cost the tmpfs no bytes, only inodes: an inode limit or the kernel memory
      // charged to the run must stop them. A regular builtin, since a failed redirection of a
      // special one (":") ends the shell itself.
      Path files =
          workspace.script(
              "files.sh",
              "cd /tmp || exit 4; i=0; while [ $i -lt 200000 ]; do true > f$i || exit 3;"
                  + " i=$((i+1)); done; echo $i");

      LaunchResult attack =
          launches.run(launches.spec(files).timeout(Duration.ofMinutes(5)).build());

      assertThat(attack.timedOut()).as(attack.toString()).isFalse();
      assertThat(attack.stdout().text()).as("all 200000 created").doesNotContain("200000");
      assertThat(attack.exitCode().orElse(-1) == 3 || attack.hit(ResourceBound.MEMORY))
          .as("the files ran out of room (exit 3) or of memory: %s", attack)
          .isTrue();
    }
  }

  private void requireAdvertised(IsolationCapability capability) {
    Assumptions.assumeTrue(
        backend().capabilities().contains(capability),
        () -> "the backend does not advertise " + capability);
  }

  private static long requireConfigured(OptionalLong limit, String hook) {
    Assumptions.assumeTrue(
        limit.isPresent(),
        () -> "the test class does not say its backend's limit (" + hook + ")");
    return limit.getAsLong();
  }

  private static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
