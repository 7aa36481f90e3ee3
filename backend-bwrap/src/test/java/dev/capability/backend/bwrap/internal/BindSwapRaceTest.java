package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread swaps a writable root for a symlink to another host directory and back, as fast as it
 * can, while the backend runs a command that writes into that root again and again: the attack of
 * a concurrent run that can write the root's parent. Whatever the timing, a run either is refused
 * or writes into the directory that was checked; the host directory never gets a file.
 */
class BindSwapRaceTest {
  private static final int RUNS = 300;

  @TempDir Path tmp;

  @Test
  void aWritableRootSwappedForASymlinkNeverBindsTheHostPath() throws Exception {
    Sandboxes.openDirectory(tmp);
    Path repo = Sandboxes.openDirectory(tmp.resolve("repo"));
    SandboxIdentity identity = Sandboxes.identity();
    Path parent = Sandboxes.writableBy(repo.resolve("ws"), identity);
    Path root = Sandboxes.writableBy(parent.resolve("race"), identity);
    Path away = parent.resolve("race.away");
    Path host = Sandboxes.writableBy(tmp.resolve("host"), identity);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong swaps = new AtomicLong();
    Thread swapper =
        new Thread(
            () -> {
              while (!stop.get()) {
                try {
                  Files.move(root, away, StandardCopyOption.ATOMIC_MOVE);
                  Files.createSymbolicLink(root, host);
                  Thread.onSpinWait();
                  Files.delete(root);
                  Files.move(away, root, StandardCopyOption.ATOMIC_MOVE);
                  swaps.incrementAndGet();
                } catch (IOException e) {
                  throw new IllegalStateException("the swapper failed", e);
                }
              }
            },
            "bind-swapper");
    int launched = 0;
    int refused = 0;
    try (BackendGate gate = Sandboxes.gate()) {
      ExecutionBackend backend = gate.backend();
      swapper.start();
      for (int run = 0; run < RUNS; run++) {
        try {
          LaunchResult result =
              backend.launch(
                  Sandboxes.spec(Sandboxes.system("touch"), repo)
                      .arguments(List.of(root.resolve("written-" + run).toString()))
                      .writableRoots(List.of(root))
                      .build());
          launched++;
          assertThat(result.exitCode()).isPresent();
        } catch (LaunchFailedException e) {
          refused++;
        }
        assertThat(listing(host)).as("after run %d", run).isEmpty();
      }
    } finally {
      stop.set(true);
      swapper.join();
    }
    assertThat(swaps.get()).as("swaps").isPositive();
    assertThat(launched).as("runs that launched").isPositive();
    assertThat(launched + refused).isEqualTo(RUNS);
    assertThat(listing(host)).isEmpty();
  }

  private static List<Path> listing(Path directory) throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.toList();
    }
  }
}
