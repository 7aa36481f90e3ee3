package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The child-JVM executor on the plain process backend, where the host allows it explicitly. */
class ChildJvmProcessBackendTest {
  private static final String ENTRY = "com.example.Tool";
  @TempDir Path work;

  @Test
  void runsWhenAllowedAndAttestsTheHostNetworkItCannotTakeAway() throws IOException {
    CapabilityPackage pkg = TestPackages.verifyingTool(work, "{}");
    try (ExecutionBackend backend = new ProcessBackendProvider().create(BackendConfig.defaults())) {
      Executor executor = new ChildJvmExecutor("process", true, List.of(backend), work);

      ExecutionReceipt receipt = CapabilityRuntime.builder().executor(executor).build().run(pkg, "{\"text\":\"x\"}");

      assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(receipt.output()).contains("{\"ok\":true}");
      assertThat(receipt.boundaryApplied()).isFalse();
      assertThat(receipt.attestation()).hasValueSatisfying(a -> assertThat(a.network()).isEqualTo(NetworkMode.HOST));
    }
  }

  @Test
  void aNetworkGrantIsRefusedRatherThanRunWithTheHostNetwork() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        requests.incrementAndGet();
        exchange.sendResponseHeaders(204, -1);
      }
    });
    server.start();
    try (ExecutionBackend backend = new ProcessBackendProvider().create(BackendConfig.defaults())) {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
      String body =
          "try (java.io.InputStream in = new java.net.URL(\"" + url + "\").openStream()) { return \"{}\"; }"
              + " catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }";
      byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", body)), null, Map.of());
      CapabilityPackage pkg =
          CapabilityPackages.open(
              TestPackages.directory(
                  work.resolve("package"), jar, ENTRY, "{\"network.connect\": [\"127.0.0.1:" + server.getAddress().getPort() + "\"]}"));
      Executor executor = new ChildJvmExecutor("process", true, List.of(backend), work);

      ExecutionReceipt receipt =
          CapabilityRuntime.builder().executor(executor).policy(EffectPolicies.permissive(Approval::grant)).build().run(pkg, "{\"text\":\"x\"}");

      assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
      assertThat(receipt.code()).isEqualTo(CapabilityCodes.NETWORK_FILTER_UNAVAILABLE);
      assertThat(receipt.message()).contains("backend 'process'").contains("FILTERED_EGRESS");
      assertThat(receipt.attestation()).as("nothing was launched").isEmpty();
      assertThat(requests).hasValue(0);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void refusesBeforeLaunchWhereThisJvmCannotLoadLibseccomp() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    // JNA cannot load its own native library in that JVM, so no libseccomp filter can be built there.
    Process probe =
        new ProcessBuilder(
                java.toString(), "-Djna.boot.library.path=" + work.resolve("nothing-here"), "-Djna.nosys=true", "-Djna.nounpack=true",
                "-cp", classPath, ProgramStartRefusalProbe.class.getName(), work.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(probe.waitFor()).as(output).isZero();
    assertThat(output.lines().toList())
        .as(output)
        .startsWith("REFUSED", "ISOLATION_UNAVAILABLE", "no attestation");
    assertThat(output).contains("not granted process.spawn").contains("libseccomp");
    assertThat(work.resolve("marks").resolve("loaded")).as("the capability never ran").doesNotExist();
  }

  @Test
  void aCapabilityNotGrantedProcessSpawnCannotStartAProgramEvenByReflection() throws IOException {
    Path notes = Files.createDirectory(work.resolve("notes"));
    Path pwned = notes.resolve("pwned");
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", TestPackages.reflectiveSpawn(pwned.toString()))), null, Map.of());
    CapabilityPackage pkg =
        CapabilityPackages.open(
            TestPackages.directory(work.resolve("package"), jar, ENTRY, "{\"filesystem.write\": [\"notes\"], \"code.dynamic\": [\"reflection\"]}"));
    try (ExecutionBackend backend = new ProcessBackendProvider().create(BackendConfig.defaults())) {
      Executor executor = new ChildJvmExecutor("process", true, List.of(backend), work);

      ExecutionReceipt receipt =
          CapabilityRuntime.builder().executor(executor).policy(EffectPolicies.permissive(Approval::grant)).build().run(pkg, "{\"text\":\"x\"}");

      assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.FAILED);
      assertThat(receipt.message()).contains("refused: java.io.IOException").contains("Operation not permitted");
      assertThat(pwned).doesNotExist();
    }
  }
}
