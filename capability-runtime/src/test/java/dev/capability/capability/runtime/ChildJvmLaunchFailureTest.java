package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox that cannot start the capability host (bwrap without user namespaces, say) means the
 * capability never ran: the receipt is a refusal with nothing granted, not a failed run.
 */
class ChildJvmLaunchFailureTest {
  @TempDir Path work;

  /** An in-JVM seam standing in for a backend whose launcher fails before the command exists. */
  private static final class UnstartableBackend implements ExecutionBackend {
    final AtomicInteger launches = new AtomicInteger();

    @Override
    public String id() {
      return "unstartable";
    }

    @Override
    public Set<IsolationCapability> capabilities() {
      return EnumSet.allOf(IsolationCapability.class);
    }

    @Override
    public LaunchResult launch(LaunchSpec spec) {
      launches.incrementAndGet();
      throw new LaunchFailedException("bwrap: setting up uid map: Permission denied");
    }

    @Override
    public void close() {}
  }

  @Test
  void aHostTheSandboxCouldNotStartIsARefusalNotAFailedRun() {
    UnstartableBackend backend = new UnstartableBackend();
    CapabilityPackage hello = CapabilityPackages.open(Path.of("../examples/capabilities/hello"));

    try (CapabilityRuntime runtime =
        CapabilityRuntime.builder().executor(new ChildJvmExecutor(backend.id(), false, List.of(backend), work)).build()) {
      ExecutionReceipt receipt = runtime.run(hello, "{\"name\":\"Ada\"}");

      assertThat(backend.launches.get()).as("the kernel reached the backend").isEqualTo(1);
      assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
      assertThat(receipt.code()).isEqualTo(CapabilityCodes.ISOLATION_UNAVAILABLE);
      assertThat(receipt.message()).contains("LAUNCH_FAILED", "Permission denied", "nothing ran");
      assertThat(receipt.output()).isEmpty();
      assertThat(receipt.grantedEffects()).isEmpty();
      assertThat(receipt.boundaryApplied()).isFalse();
    }
  }
}
