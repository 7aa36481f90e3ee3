package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutorProvider;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.plugin.Plugins;
import dev.capability.kernel.core.Backends;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Executors are found as backends are: by id, through the one plugin loader, on a real class path. */
class ExecutorProvidersTest {
  @TempDir Path work;

  /** The test class path plus a directory whose {@code META-INF/services} lists {@code providers} as executor providers too. */
  private ClassLoader alsoListing(Class<?>... providers) throws IOException {
    Path services = Files.createDirectories(work.resolve("classes/META-INF/services"));
    StringBuilder lines = new StringBuilder();
    for (Class<?> provider : providers) {
      lines.append(provider.getName()).append('\n');
    }
    Files.writeString(services.resolve(ExecutorProvider.class.getName()), lines);
    return new URLClassLoader(new URL[] {work.resolve("classes").toUri().toURL()}, getClass().getClassLoader());
  }

  @Test
  void twoExecutorProvidersWithOneIdFailTheBuildNamingBothClasses() throws IOException {
    ClassLoader loader = alsoListing(SecondChildJvmProvider.class);

    assertThatThrownBy(() -> CapabilityRuntime.builder().classLoader(loader).executor("in-process").build())
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(Plugins.DUPLICATE))
        .hasMessageContaining("'child-jvm'")
        .hasMessageContaining(ChildJvmExecutorProvider.class.getName())
        .hasMessageContaining(SecondChildJvmProvider.class.getName());
    assertThatThrownBy(() -> CapabilityRuntime.builder().classLoader(loader).build())
        .as("the automatic choice is refused alike")
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(Plugins.DUPLICATE));
  }

  @Test
  void anUnknownExecutorIdNamesTheInstalledOnes() {
    assertThatThrownBy(() -> CapabilityRuntime.builder().executor("no-such").build())
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.EXECUTOR_UNKNOWN))
        .hasMessageContaining("[child-jvm, in-process]");
  }

  @Test
  void theChildJvmExecutorNeverChoosesTheUnisolatedProcessBackendOfItsRegistry() {
    try (Backends processOnly = Backends.of(List.of(new ProcessBackendProvider()), BackendConfig.defaults())) {
      ExecutorConfig config = ExecutorConfig.of(work, processOnly);

      assertThatThrownBy(() -> CapabilityRuntime.builder().executorConfig(config).build())
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.ISOLATION_UNAVAILABLE))
          .hasMessageContaining("child-jvm (ISOLATION_UNAVAILABLE")
          .hasMessageContaining("process (not a sandbox")
          .hasMessageContaining("in-process (no boundary: only when named)");
    }
  }

  @Test
  void aNamedProcessBackendRunsOnlyWhenTheSettingAllowsIt() throws IOException {
    try (Backends processOnly = Backends.of(List.of(new ProcessBackendProvider()), BackendConfig.defaults())) {
      ExecutorConfig named = new ExecutorConfig(work, processOnly, Map.of(CapabilityExecutors.CHILD_JVM_BACKEND, "process"));
      ExecutorConfig allowed = new ExecutorConfig(work, processOnly,
          Map.of(CapabilityExecutors.CHILD_JVM_BACKEND, "process", CapabilityExecutors.CHILD_JVM_ALLOW_UNISOLATED, "true"));
      ExecutorConfig garbled = new ExecutorConfig(work, processOnly,
          Map.of(CapabilityExecutors.CHILD_JVM_BACKEND, "process", CapabilityExecutors.CHILD_JVM_ALLOW_UNISOLATED, "yes"));

      CapabilityPackage pkg = TestPackages.verifyingTool(work, "{}");

      try (CapabilityRuntime runtime = CapabilityRuntime.builder().executor("child-jvm").executorConfig(named).build()) {
        assertThat(runtime.executor().advertises()).containsEntry("backend", "process").containsEntry("isolation", "none");
        ExecutionReceipt receipt = runtime.run(pkg, "{\"text\":\"x\"}");
        assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
        assertThat(receipt.code()).isEqualTo(CapabilityCodes.ISOLATION_UNAVAILABLE);
        assertThat(receipt.message()).contains("must be allowed explicitly");
      }
      try (CapabilityRuntime runtime = CapabilityRuntime.builder().executor("child-jvm").executorConfig(allowed).build()) {
        ExecutionReceipt receipt = runtime.run(pkg, "{\"text\":\"x\"}");
        assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
        assertThat(receipt.boundaryApplied()).isFalse();
        assertThat(receipt.attestation()).hasValueSatisfying(a -> assertThat(a.backend().id()).isEqualTo("process"));
      }
      assertThatThrownBy(() -> CapabilityRuntime.builder().executor("child-jvm").executorConfig(garbled).build())
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.EXECUTOR_SETTING_INVALID))
          .hasMessageContaining("child-jvm.allowUnisolated")
          .hasMessageContaining("'yes'");
    }
  }

  @Test
  void theOperatorsPrivateAddressNamesAreASettingThatPlansBind() throws IOException {
    try (Backends processOnly = Backends.of(List.of(new ProcessBackendProvider()), BackendConfig.defaults())) {
      Map<String, String> base = Map.of(CapabilityExecutors.CHILD_JVM_BACKEND, "process", CapabilityExecutors.CHILD_JVM_ALLOW_UNISOLATED, "true");
      ExecutorConfig plain = new ExecutorConfig(work, processOnly, base);
      Map<String, String> withNames = new java.util.HashMap<>(base);
      withNames.put(CapabilityExecutors.CHILD_JVM_EGRESS_PRIVATE_ADDRESS_NAMES, "svc.test, git.internal");
      ExecutorConfig naming = new ExecutorConfig(work, processOnly, withNames);
      withNames.put(CapabilityExecutors.CHILD_JVM_EGRESS_PRIVATE_ADDRESS_NAMES, "svc.test,Bad_Name");
      ExecutorConfig garbled = new ExecutorConfig(work, processOnly, withNames);
      CapabilityPackage pkg = TestPackages.verifyingTool(work, "{}");

      try (CapabilityRuntime without = CapabilityRuntime.builder().executor("child-jvm").executorConfig(plain).build();
          CapabilityRuntime with = CapabilityRuntime.builder().executor("child-jvm").executorConfig(naming).build()) {
        assertThat(without.executor().advertises()).doesNotContainKey("egressPrivateAddressNames");
        assertThat(with.executor().advertises()).containsEntry("egressPrivateAddressNames", "git.internal,svc.test");
        assertThat(with.plan(pkg, "{\"text\":\"x\"}").fingerprint())
            .as("a plan approved without the names does not run with them")
            .isNotEqualTo(without.plan(pkg, "{\"text\":\"x\"}").fingerprint());
      }
      assertThatThrownBy(() -> CapabilityRuntime.builder().executor("child-jvm").executorConfig(garbled).build())
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.EXECUTOR_SETTING_INVALID))
          .hasMessageContaining("child-jvm.egressPrivateAddressNames")
          .hasMessageContaining("'Bad_Name'");
      withNames.put(CapabilityExecutors.CHILD_JVM_EGRESS_PRIVATE_ADDRESS_NAMES, "127.0.0.1");
      ExecutorConfig literal = new ExecutorConfig(work, processOnly, withNames);
      assertThatThrownBy(() -> CapabilityRuntime.builder().executor("child-jvm").executorConfig(literal).build())
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.EXECUTOR_SETTING_INVALID))
          .hasMessageContaining("IP literal");
    }
  }
}
