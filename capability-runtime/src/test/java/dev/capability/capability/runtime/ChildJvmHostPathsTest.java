package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.HookOutcome.Status;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every path the capability host takes, run for real under bwrap from the small class path the
 * executor stages: a class that path lacked would fail these runs with a {@code NoClassDefFoundError}.
 */
class ChildJvmHostPathsTest {
  private static final BackendGate GATE = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String ENTRY = "com.example.Tool";
  private static final String TOOL =
      """
      package com.example;
      public final class Tool implements dev.capability.capability.api.Capability {
        %s
        @Override
        public String execute(String in, dev.capability.capability.api.CapabilityContext context) {
          context.log("readable " + context.readablePaths() + " writable " + context.writablePaths());
          if (in.contains("throw")) { throw new IllegalArgumentException("bad \\"input\\"\\n\\u2028\\u0001"); }
          if (in.contains("null")) { return null; }
          if (in.contains("probe")) { return "{\\"loaded\\":\\"" + loadable() + "\\"}"; }
          return "{\\"text\\":\\"caf\\u00e9 \\\\\\"quoted\\\\\\" \\\\u0001\\"}";
        }
        /** The application classes the API's class loader, which capability code can reach, hands out. */
        private static String loadable() {
          StringBuilder loaded = new StringBuilder();
          for (String name : new String[] {
              "dev.capability.capability.runtime.internal.exec.CapabilityHost",
              "com.fasterxml.jackson.databind.ObjectMapper",
              "dev.capability.kernel.core.CommandKernel",
              "dev.capability.capability.runtime.internal.exec.ChildJvmExecutor",
              "dev.capability.capability.runtime.CapabilityRuntime",
              "org.slf4j.LoggerFactory"}) {
            try {
              Class.forName(name, false, dev.capability.capability.api.Capability.class.getClassLoader());
              loaded.append(name).append(' ');
            } catch (ClassNotFoundException e) {
              // not on the host's class path
            }
          }
          return loaded.toString().strip();
        }
        @Override
        public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) {
          if (in.contains("uncheckable")) { throw new UnsupportedOperationException("cannot check"); }
          return !in.contains("unverified");
        }
        @Override
        public void rollback(String in, dev.capability.capability.api.CapabilityContext context) {
          if (in.contains("stuck")) { throw new IllegalStateException("cannot undo"); }
        }
      }
      """;
  @TempDir Path work;
  private CapabilityRuntime runtime;

  @BeforeEach
  void reachableBySandboxUser() throws IOException {
    // The sandbox runs as nobody: the test's directories must let it through.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createDirectories(work.resolve("data"));
    runtime =
        CapabilityRuntime.builder()
            .executor(new ChildJvmExecutor("bwrap", false, List.of(GATE.backend()), work))
            .policy(EffectPolicies.permissive(Approval::grant))
            .build();
  }

  @AfterAll
  static void close() {
    GATE.close();
  }

  private CapabilityPackage pkg(String name, String constructor) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TOOL.formatted(constructor)), null, Map.of());
    Path directory = TestPackages.directory(work.resolve(name), jar, ENTRY, "{\"filesystem.read\": [\"data\"], \"code.dynamic\": [\"reflection\"]}");
    Path manifest = directory.resolve("capability.json");
    Files.writeString(manifest, Files.readString(manifest).replace("\"hooks\": [\"verify\"]", "\"hooks\": [\"verify\", \"rollback\"]"));
    return CapabilityPackages.open(directory);
  }

  private static List<Status> statuses(ExecutionReceipt receipt) {
    return receipt.hooks().stream().map(HookOutcome::status).toList();
  }

  @Test
  void aVerifiedRunWritesItsOutputThroughTheHostsResponseWriter() throws IOException {
    ExecutionReceipt receipt = runtime.run(pkg("ok", ""), "{\"text\":\"fine\"}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.output()).hasValue("{\"text\":\"café \\\"quoted\\\" \\u0001\"}");
    assertThat(statuses(receipt)).containsExactly(Status.SUCCEEDED, Status.SUCCEEDED);
  }

  @Test
  void capabilityCodeReachesNoneOfTheApplicationsLibrariesThroughTheApiLoader() throws IOException {
    ExecutionReceipt receipt = runtime.run(pkg("probe", ""), "{\"text\":\"probe\"}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    // The host's own classes are there (the probe works); the executor, the kernel, Jackson and the logging facade are not.
    assertThat(receipt.output()).hasValue("{\"loaded\":\"dev.capability.capability.runtime.internal.exec.CapabilityHost\"}");
  }

  @Test
  void aFailedExecuteIsRolledBackAndAFailedRollbackIsReported() throws IOException {
    CapabilityPackage pkg = pkg("failing", "");

    ExecutionReceipt thrown = runtime.run(pkg, "{\"text\":\"throw\"}");
    ExecutionReceipt nothing = runtime.run(pkg, "{\"text\":\"null\"}");
    ExecutionReceipt stuck = runtime.run(pkg, "{\"text\":\"throw stuck\"}");

    assertThat(thrown.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(thrown.message()).contains("execute failed: java.lang.IllegalArgumentException: bad \"input\"");
    assertThat(statuses(thrown)).containsExactly(Status.FAILED, Status.ROLLED_BACK);
    assertThat(nothing.message()).contains("execute returned null");
    assertThat(stuck.message()).contains("rollback failed").contains("cannot undo");
    assertThat(statuses(stuck)).containsExactly(Status.FAILED, Status.ROLLBACK_FAILED);
  }

  @Test
  void aResultVerifyRefusesOrCannotCheckIsRolledBack() throws IOException {
    CapabilityPackage pkg = pkg("verifying", "");

    ExecutionReceipt unverified = runtime.run(pkg, "{\"text\":\"unverified\"}");
    ExecutionReceipt unchecked = runtime.run(pkg, "{\"text\":\"uncheckable\"}");

    assertThat(unverified.message()).contains("the result was not verified");
    assertThat(statuses(unverified)).containsExactly(Status.SUCCEEDED, Status.FAILED, Status.ROLLED_BACK);
    assertThat(unchecked.message()).contains("verify failed").contains("cannot check");
    assertThat(statuses(unchecked)).containsExactly(Status.SUCCEEDED, Status.FAILED, Status.ROLLED_BACK);
  }

  @Test
  void anEntryClassThatCannotBeInstantiatedIsAFailedRun() throws IOException {
    CapabilityPackage pkg = pkg("unbuildable", "public Tool() { throw new IllegalStateException(\"no tool today\"); }");

    ExecutionReceipt receipt = runtime.run(pkg, "{\"text\":\"fine\"}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(receipt.message()).contains("entry class cannot be instantiated").contains("no tool today").doesNotContain("NoClassDefFoundError");
  }
}
