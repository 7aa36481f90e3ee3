package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.core.Backends;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InProcessExecutionTest {
  private static final String ENTRY = "com.example.Tool";
  @TempDir Path work;

  private CapabilityPackage pkg(String name, String source, String effects) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, source), null, Map.of());
    return CapabilityPackages.open(TestPackages.directory(work.resolve(name), jar, ENTRY, effects));
  }

  private static String verifying(String executeBody, String verifyBody) {
    return """
        package com.example;
        public final class Tool implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) { %s }
          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { %s }
        }
        """.formatted(executeBody, verifyBody);
  }

  private static CapabilityRuntime inProcess(List<ExecutionReceipt> store) {
    return CapabilityRuntime.builder().executor("in-process").receipts(store::add).build();
  }

  @Test
  void runsAJavacBuiltPackageAndSaysNoBoundaryApplied() throws IOException {
    CapabilityPackage pkg = pkg("hello", verifying("return \"{\\\"echo\\\":\" + in + \"}\";", "return out.contains(\"echo\");"), "{}");
    List<ExecutionReceipt> stored = new ArrayList<>();
    CapabilityRuntime runtime = inProcess(stored);

    ExecutionReceipt receipt = runtime.run(pkg, "{\"text\":\"hi\"}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.code()).isEqualTo("SUCCEEDED");
    assertThat(receipt.output()).contains("{\"echo\":{\"text\":\"hi\"}}");
    assertThat(receipt.boundaryApplied()).isFalse();
    assertThat(receipt.executorId()).isEqualTo("in-process");
    assertThat(receipt.attestation()).isEmpty();
    assertThat(receipt.capability()).isEqualTo("test-capability@1.2.3");
    assertThat(receipt.planFingerprint()).isEqualTo(runtime.plan(pkg, "{\"text\":\"hi\"}").fingerprint());
    assertThat(receipt.hooks()).extracting(HookOutcome::hook, HookOutcome::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("execute", HookOutcome.Status.SUCCEEDED),
            org.assertj.core.groups.Tuple.tuple("verify", HookOutcome.Status.SUCCEEDED));
    assertThat(stored).containsExactly(receipt);
  }

  @Test
  void theCapabilitySeesTheApiButNotTheRuntimeOrTheHostClassPath() throws IOException {
    String body =
        """
        String seen = "";
        for (String name : new String[] {"dev.capability.capability.api.Capability",
            "dev.capability.capability.runtime.CapabilityRuntime", "org.junit.jupiter.api.Test"}) {
          try { Class.forName(name, false, getClass().getClassLoader()); seen += name + ";"; }
          catch (ClassNotFoundException e) { }
        }
        return "{\\"seen\\":\\"" + seen + "\\"}";
        """;
    CapabilityPackage pkg = pkg("loader", verifying(body, "return true;"), "{\"code.dynamic\": [\"reflection\"]}");

    ExecutionReceipt receipt =
        CapabilityRuntime.builder().executor("in-process").policy(EffectPolicies.permissive(Approval::grant)).build()
            .run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.output()).contains("{\"seen\":\"dev.capability.capability.api.Capability;\"}");
  }

  @Test
  void aFailingOrUnverifiedCapabilityIsAFailedRunWithItsHooksRecorded() throws IOException {
    CapabilityRuntime runtime = inProcess(new ArrayList<>());
    ExecutionReceipt threw = runtime.run(pkg("threw", verifying("throw new IllegalStateException(\"boom\");", "return true;"), "{}"), "{\"text\":\"x\"}");
    ExecutionReceipt unverified = runtime.run(pkg("unverified", verifying("return \"{}\";", "return false;"), "{}"), "{\"text\":\"x\"}");

    assertThat(threw.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(threw.code()).isEqualTo("CAPABILITY_FAILED");
    assertThat(threw.message()).contains("boom");
    assertThat(threw.hooks()).extracting(HookOutcome::status).containsExactly(HookOutcome.Status.FAILED);
    assertThat(unverified.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(unverified.hooks()).extracting(HookOutcome::hook).containsExactly("execute", "verify");
    assertThat(unverified.hooks().get(1).status()).isEqualTo(HookOutcome.Status.FAILED);
  }

  @Test
  void aDeclaredRollbackRunsAfterAFailureAndItsOwnFailureIsRecorded() throws IOException {
    String source =
        """
        package com.example;
        public final class Tool implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) { return "{}"; }
          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return false; }
          @Override
          public void rollback(String in, dev.capability.capability.api.CapabilityContext context) {
            if (in.contains("fail")) { throw new IllegalStateException("cannot undo"); }
          }
        }
        """;
    CapabilityPackage pkg = withRollback(pkg("rollback", source, "{}"));
    CapabilityRuntime runtime = inProcess(new ArrayList<>());

    ExecutionReceipt rolledBack = runtime.run(pkg, "{\"text\":\"x\"}");
    ExecutionReceipt stuck = runtime.run(pkg, "{\"text\":\"fail\"}");

    assertThat(rolledBack.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(rolledBack.hooks()).extracting(HookOutcome::status)
        .containsExactly(HookOutcome.Status.SUCCEEDED, HookOutcome.Status.FAILED, HookOutcome.Status.ROLLED_BACK);
    assertThat(stuck.hooks()).extracting(HookOutcome::status).last().isEqualTo(HookOutcome.Status.ROLLBACK_FAILED);
    assertThat(stuck.message()).contains("rollback failed").contains("cannot undo");
  }

  private CapabilityPackage withRollback(CapabilityPackage pkg) throws IOException {
    Path manifest = work.resolve("rollback/capability.json");
    Files.writeString(manifest, Files.readString(manifest).replace("\"hooks\": [\"verify\"]", "\"hooks\": [\"verify\", \"rollback\"]"));
    CapabilityPackage reopened = CapabilityPackages.open(work.resolve("rollback"));
    assertThat(reopened.descriptor().hooks()).contains(Hook.ROLLBACK);
    assertThat(pkg.descriptor().hooks()).doesNotContain(Hook.ROLLBACK);
    return reopened;
  }

  @Test
  void outputThatDoesNotMatchTheSchemaFailsTheRun() throws IOException {
    ExecutionReceipt receipt =
        inProcess(new ArrayList<>()).run(pkg("array", verifying("return \"[1]\";", "return true;"), "{}"), "{\"text\":\"x\"}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(receipt.code()).isEqualTo("OUTPUT_INVALID");
  }

  @Test
  void aDeniedPlanIsRefusedWithAReceiptAndNeverLoaded() throws IOException {
    Path mark = work.resolve("marks/loaded");
    String source =
        TestPackages.capabilitySource(
            ENTRY,
            "try { java.nio.file.Files.createDirectories(java.nio.file.Path.of(\"" + mark.getParent() + "\"));"
                + " java.nio.file.Files.writeString(java.nio.file.Path.of(\"" + mark + "\"), \"x\"); }"
                + " catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }",
            "return \"{}\";");
    CapabilityPackage pkg = pkg("writer", source, "{\"filesystem.write\": [\"marks\"]}");
    List<ExecutionReceipt> stored = new ArrayList<>();

    ExecutionReceipt receipt = inProcess(stored).run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo("POLICY_DENIED");
    assertThat(receipt.grantedEffects()).isEmpty();
    assertThat(receipt.declaredEffects()).containsExactly(Effect.of("filesystem.write", "marks"));
    assertThat(stored).containsExactly(receipt);
    assertThat(Files.exists(mark)).isFalse();
  }

  @Test
  void aPlanThatDriftedIsRefusedNamingWhatChanged() throws IOException {
    CapabilityPackage pkg = pkg("drift", verifying("return \"{}\";", "return true;"), "{}");
    CapabilityRuntime runtime = inProcess(new ArrayList<>());
    CapabilityPlan approved = runtime.plan(pkg, "{\"text\":\"approved\"}");

    ExecutionReceipt receipt = runtime.run(approved, pkg, "{\"text\":\"changed\"}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo("PLAN_DRIFT");
    assertThat(receipt.message()).contains("input");
    assertThat(receipt.planFingerprint()).isEqualTo(approved.fingerprint());
  }

  private CapabilityPackage fetching(HttpServer server) throws IOException {
    String body =
        "try (java.io.InputStream body = new java.net.URL(\"http://127.0.0.1:" + server.getAddress().getPort() + "/\").openStream()) {"
            + " return \"{\\\"read\\\":\" + body.readAllBytes().length + \"}\"; }"
            + " catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }";
    return pkg("fetcher", verifying(body, "return true;"), "{\"network.connect\": [\"127.0.0.1:" + server.getAddress().getPort() + "\"]}");
  }

  private static HttpServer countingServer(AtomicInteger requests) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        requests.incrementAndGet();
        exchange.sendResponseHeaders(200, 2);
        exchange.getResponseBody().write("ok".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    });
    server.start();
    return server;
  }

  @Test
  void aNetworkGrantIsRefusedRatherThanRunWithTheHostsWholeNetwork() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    HttpServer server = countingServer(requests);
    try {
      CapabilityPackage pkg = fetching(server);

      ExecutionReceipt receipt =
          CapabilityRuntime.builder().executor("in-process").policy(EffectPolicies.permissive(Approval::grant)).build()
              .run(pkg, "{\"text\":\"x\"}");

      assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
      assertThat(receipt.code()).isEqualTo(CapabilityCodes.NETWORK_FILTER_UNAVAILABLE);
      assertThat(receipt.message()).contains("network.connect(127.0.0.1:").contains(CapabilityExecutors.IN_PROCESS_ALLOW_HOST_NETWORK);
      assertThat(requests).as("the capability never ran").hasValue(0);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void theHostMayAllowTheHostNetworkExplicitlyAndPlansBindThatChoice() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    HttpServer server = countingServer(requests);
    try (Backends none = Backends.given(List.of())) {
      CapabilityPackage pkg = fetching(server);
      ExecutorConfig allowing = new ExecutorConfig(work, none, Map.of(CapabilityExecutors.IN_PROCESS_ALLOW_HOST_NETWORK, "true"));
      CapabilityRuntime runtime =
          CapabilityRuntime.builder().executor("in-process").executorConfig(allowing).policy(EffectPolicies.permissive(Approval::grant)).build();
      CapabilityPlan refusing =
          CapabilityRuntime.builder().executor("in-process").policy(EffectPolicies.permissive(Approval::grant)).build()
              .plan(pkg, "{\"text\":\"x\"}");

      ExecutionReceipt receipt = runtime.run(pkg, "{\"text\":\"x\"}");

      assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(receipt.boundaryApplied()).isFalse();
      assertThat(receipt.usedEffects()).as("in-process observes nothing").isEmpty();
      assertThat(requests).hasValue(1);
      assertThat(runtime.executor().advertises()).containsEntry("network", "host");
      assertThat(runtime.plan(pkg, "{\"text\":\"x\"}").fingerprint()).isNotEqualTo(refusing.fingerprint());
    } finally {
      server.stop(0);
    }
  }

  @Test
  void anAllowHostNetworkSettingOtherThanTrueOrFalseFailsTheBuild() {
    try (Backends none = Backends.given(List.of())) {
      ExecutorConfig config = new ExecutorConfig(work, none, Map.of(CapabilityExecutors.IN_PROCESS_ALLOW_HOST_NETWORK, "yes"));

      assertThatThrownBy(() -> CapabilityRuntime.builder().executor("in-process").executorConfig(config).build())
          .extracting(e -> ((CapabilityException) e).code())
          .isEqualTo(CapabilityCodes.EXECUTOR_SETTING_INVALID);
    }
  }

  @Test
  void theInProcessExecutorIsNeverChosenWithoutBeingNamed() {
    // With bwrap usable the default is the sandboxed child JVM; without, the build is refused.
    try {
      assertThat(CapabilityRuntime.builder().build().executor().id()).isEqualTo("child-jvm");
    } catch (CapabilityException e) {
      assertThat(e.code()).isEqualTo("ISOLATION_UNAVAILABLE");
    }
    assertThatThrownBy(() -> CapabilityRuntime.builder().executor("no-such").build())
        .extracting(e -> ((CapabilityException) e).code())
        .isEqualTo("EXECUTOR_UNKNOWN");
  }
}
