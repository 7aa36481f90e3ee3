package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The child-JVM executor on the plain process backend, where the host allows it explicitly. */
class ChildJvmProcessBackendTest {
  private static final String ENTRY = "com.example.Tool";
  @TempDir Path work;

  @Test
  void runsWhenAllowedAndAttestsTheHostNetworkItCannotTakeAway() throws IOException {
    String source =
        """
        package com.example;
        public final class Tool implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) { return "{\\"ok\\":true}"; }
          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
        }
        """;
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, source), null, Map.of());
    CapabilityPackage pkg = CapabilityPackages.open(TestPackages.directory(work.resolve("packages").resolve("tool"), jar, ENTRY, "{}"));
    try (ExecutionBackend backend = new ProcessBackendProvider().create(BackendConfig.defaults())) {
      Executor executor = new ChildJvmExecutor("process", true, List.of(backend), work);

      ExecutionReceipt receipt = CapabilityRuntime.builder().executor(executor).build().run(pkg, "{\"text\":\"x\"}");

      assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(receipt.output()).contains("{\"ok\":true}");
      assertThat(receipt.boundaryApplied()).isFalse();
      assertThat(receipt.attestation()).hasValueSatisfying(a -> assertThat(a).contains("\"network\":\"host\""));
    }
  }
}
