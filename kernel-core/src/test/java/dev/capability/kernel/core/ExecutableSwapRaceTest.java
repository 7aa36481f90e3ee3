package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attacker renames other bytes over the executable's path as fast as it can while the kernel
 * runs it again and again. Whatever ran must be what the attestation says was hashed.
 */
class ExecutableSwapRaceTest {
  @TempDir Path tmp;

  @Test
  void theBytesThatRunAreAlwaysTheBytesThatWereHashed() throws Exception {
    Path versions = Files.createDirectories(tmp.resolve("versions"));
    Path honest = TestFiles.script(versions, "honest", "echo honest");
    Path evil = TestFiles.script(versions, "evil", "echo evil");
    String honestSha = Sha256.hex(Files.readAllBytes(honest));
    String evilSha = Sha256.hex(Files.readAllBytes(evil));
    Path bin = Files.createDirectories(tmp.resolve("bin")).toRealPath();
    Path tool = bin.resolve("tool");
    Files.copy(honest, tool);

    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger swaps = new AtomicInteger();
    Thread swapper = new Thread(() -> {
      int i = 0;
      while (running.get()) {
        try {
          Path next = bin.resolve("next-" + (i++ % 2));
          Files.copy(i % 2 == 0 ? honest : evil, next, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
          Files.move(next, tool, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          swaps.incrementAndGet();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    }, "swapper");

    ExecutionPolicy policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .executable(ExecutableRule.atPath("tool", tool).exact().build())
        .build();
    int honestRuns = 0;
    int evilRuns = 0;
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build()) {
      swapper.start();
      for (int run = 0; run < 300; run++) {
        ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString()).build());
        // rename(2) is atomic, so the path always names one complete file.
        assertThat(result.status()).as("run %d: %s", run, result.decision()).isEqualTo(ExecutionStatus.COMPLETED);
        String attested = result.attestation().executable().sha256();
        String output = result.stdout().text();
        if (output.equals("honest\n")) {
          assertThat(attested).as("run %d printed honest", run).isEqualTo(honestSha);
          honestRuns++;
        } else {
          assertThat(output).as("run %d", run).isEqualTo("evil\n");
          assertThat(attested).as("run %d printed evil", run).isEqualTo(evilSha);
          evilRuns++;
        }
      }
    } finally {
      running.set(false);
      swapper.join();
    }
    assertThat(swaps.get()).as("the swapper really raced the executions").isGreaterThan(10);
    assertThat(honestRuns + evilRuns).isEqualTo(300);
  }
}
