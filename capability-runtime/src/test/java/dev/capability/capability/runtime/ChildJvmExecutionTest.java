package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.internal.exec.CapabilityHost;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs capabilities in a child JVM under Bubblewrap; skipped with the probe's reason where bwrap cannot run. */
class ChildJvmExecutionTest {
  private static final BackendGate GATE = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String ENTRY = "com.example.Tool";
  @TempDir Path work;

  @BeforeEach
  void reachableBySandboxUser() throws IOException {
    // The sandbox runs as nobody: the test's directories must let it through.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterAll
  static void close() {
    GATE.close();
  }

  private CapabilityPackage pkg(String name, String executeBody, String effects) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, source(executeBody)), null, Map.of());
    return CapabilityPackages.open(TestPackages.directory(work.resolve("packages").resolve(name), jar, ENTRY, effects));
  }

  private static String source(String executeBody) {
    return """
        package com.example;
        public final class Tool implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) { %s }
          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
        }
        """.formatted(executeBody);
  }

  private CapabilityRuntime runtime(EffectPolicy policy, List<ExecutionReceipt> store) {
    Executor executor = new ChildJvmExecutor("bwrap", false, List.of(GATE.backend()), work);
    return CapabilityRuntime.builder().executor(executor).policy(policy).receipts(store::add).build();
  }

  @Test
  void runsInABwrapSandboxAndRecordsTheKernelAttestationTyped() throws IOException {
    CapabilityPackage pkg = pkg("hello", "context.log(\"hello from the child\"); return \"{\\\"echo\\\":\" + in + \"}\";", "{}");
    List<ExecutionReceipt> stored = new ArrayList<>();

    ExecutionReceipt receipt = runtime(EffectPolicies.denyAll(), stored).run(pkg, "{\"text\":\"hi\"}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.output()).contains("{\"echo\":{\"text\":\"hi\"}}");
    assertThat(receipt.boundaryApplied()).isTrue();
    assertThat(receipt.executorId()).isEqualTo("child-jvm");
    Attestation attestation = receipt.attestation().orElseThrow();
    assertThat(attestation.status()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(attestation.argv().get(0)).isEqualTo(Path.of(System.getProperty("java.home"), "bin", "java").toRealPath().toString());
    assertThat(attestation.argv()).contains(CapabilityHost.class.getName());
    assertThat(attestation.network()).as("nothing granted network.connect").isEqualTo(NetworkMode.NONE);
    assertThat(attestation.projectWrites()).as("nothing granted filesystem.write").isEqualTo(ProjectWriteMode.READ_ONLY);
    assertThat(attestation.executable().pinning()).isEqualTo(PinnedExecutable.Pinning.PROC_FD);
    assertThat(attestation.backend().id()).isEqualTo("bwrap");
    assertThat(receipt.hooks()).extracting(HookOutcome::hook).containsExactly("execute", "verify");
    assertThat(stored).containsExactly(receipt);
    Map<String, Object> json = ExecutionReceipts.toJson(receipt);
    assertThat(json).containsEntry("fingerprint", receipt.planFingerprint()).containsEntry("status", "SUCCEEDED");
    assertThat(json.get("attestation")).asInstanceOf(InstanceOfAssertFactories.MAP)
        .containsEntry("status", "COMPLETED").containsEntry("network", "none").containsEntry("projectWrites", "read-only");
    assertThat(AttestationJson.fromJson(CanonicalJson.serialize(json.get("attestation"))))
        .as("the receipt's JSON form reads back as the same attestation").isEqualTo(attestation);
  }

  @Test
  void theChildCannotWriteWhereNothingWasGranted() throws IOException {
    Path target = work.resolve("out/escaped");
    Files.createDirectories(target.getParent());
    // World-writable, so only the sandbox's read-only view can stop the write.
    Files.setPosixFilePermissions(target.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
    String body =
        "try { java.nio.file.Files.writeString(java.nio.file.Path.of(\"" + target + "\"), \"x\"); return \"{\\\"wrote\\\":true}\"; }"
            + " catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }";
    Files.createDirectories(work.resolve("notes"));
    Files.setPosixFilePermissions(work.resolve("notes"), PosixFilePermissions.fromString("rwxrwxrwx"));
    CapabilityPackage pkg = pkg("writer", body, "{\"filesystem.write\": [\"notes\"]}");

    ExecutionReceipt receipt = runtime(EffectPolicies.permissive(Approval::grant), new ArrayList<>()).run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(receipt.message()).contains("Read-only file system");
    assertThat(target).doesNotExist();
  }

  @Test
  void aGrantedWritablePathIsWritableAndNothingElse() throws IOException {
    Path granted = work.resolve("notes");
    Files.createDirectories(granted);
    Files.setPosixFilePermissions(granted, PosixFilePermissions.fromString("rwxrwxrwx"));
    String body =
        "try { java.nio.file.Files.writeString(context.writablePaths().get(0).resolve(\"note\"), \"x\"); return \"{}\"; }"
            + " catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }";
    CapabilityPackage pkg = pkg("notes", body, "{\"filesystem.write\": [\"notes\"]}");

    ExecutionReceipt receipt = runtime(EffectPolicies.permissive(Approval::grant), new ArrayList<>()).run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(granted.resolve("note")).hasContent("x");
    assertThat(receipt.usedEffects()).as("the kernel's audit saw the write").containsExactly(Effect.of("filesystem.write", "notes"));
  }

  @Test
  void anExecutorCreatesItsBackendOnceAndClosesItWithTheRuntime() throws IOException {
    GATE.backend();
    CapabilityPackage pkg = pkg("hello", "return \"{}\";", "{}");
    int created = CountingBwrapProvider.CREATED.get();
    int closed = CountingBwrapProvider.CLOSED.get();

    try (CapabilityRuntime runtime =
        CapabilityRuntime.builder().executor(new ChildJvmExecutor(CountingBwrapProvider.ID, false, List.of(), work)).build()) {
      for (int run = 0; run < 3; run++) {
        ExecutionReceipt receipt = runtime.run(pkg, "{\"text\":\"x\"}");
        assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      }
      assertThat(CountingBwrapProvider.CREATED.get() - created).as("created once for three runs").isEqualTo(1);
      assertThat(CountingBwrapProvider.CLOSED.get() - closed).isZero();
    }
    assertThat(CountingBwrapProvider.CLOSED.get() - closed).as("closed with the runtime").isEqualTo(1);
  }

  @Test
  void aGrantTheCapabilityLeftUnusedIsNotReportedAsUsed() throws IOException {
    Path granted = work.resolve("notes");
    Files.createDirectories(granted);
    Files.setPosixFilePermissions(granted, PosixFilePermissions.fromString("rwxrwxrwx"));
    CapabilityPackage pkg = pkg("idle", "return \"{}\";", "{\"filesystem.write\": [\"notes\"]}");

    ExecutionReceipt receipt = runtime(EffectPolicies.permissive(Approval::grant), new ArrayList<>()).run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.grantedEffects()).containsExactly(Effect.of("filesystem.write", "notes"));
    assertThat(receipt.usedEffects()).isEmpty();
  }

  @Test
  void aChildThatExitsWithoutAResponseIsAFailedRun() throws IOException {
    CapabilityPackage pkg = pkg("quitter", "Runtime.getRuntime().halt(0); return \"{}\";", "{}");

    ExecutionReceipt receipt = runtime(EffectPolicies.denyAll(), new ArrayList<>()).run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(receipt.message()).contains("no valid response");
    assertThat(receipt.attestation()).isPresent();
  }

  @Test
  void aDeclaredButUngrantedConnectionCannotReachTheHost() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String body =
          "try (java.net.Socket s = new java.net.Socket(\"127.0.0.1\", " + server.getLocalPort() + ")) { return \"{\\\"connected\\\":true}\"; }"
              + " catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }";
      CapabilityPackage pkg = pkg("caller", body, "{\"network.connect\": [\"127.0.0.1:" + server.getLocalPort() + "\"]}");
      EffectPolicy grantsNothing =
          new EffectPolicy() {
            @Override
            public Map<String, Object> description() {
              return Map.of("name", "grants-nothing");
            }

            @Override
            public PolicyDecision decide(CapabilityPlan plan) {
              return PolicyDecision.allow(plan, List.of());
            }
          };

      ExecutionReceipt receipt = runtime(grantsNothing, new ArrayList<>()).run(pkg, "{\"text\":\"x\"}");

      assertThat(receipt.grantedEffects()).isEmpty();
      assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.FAILED);
      assertThat(receipt.message()).contains("ConnectException");
    }
  }

  @Test
  void refusesBeforeLaunchAGrantItCannotConfine() throws IOException {
    CapabilityPackage pkg = pkg("secretive", "return \"{}\";", "{\"secrets.read\": [\"API_TOKEN\"]}");

    ExecutionReceipt receipt = runtime(EffectPolicies.permissive(Approval::grant), new ArrayList<>()).run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo("ISOLATION_UNAVAILABLE");
    assertThat(receipt.message()).contains("secrets.read");
    assertThat(receipt.attestation()).isEmpty();
  }

  @Test
  void aCapabilityNotGrantedProcessSpawnCannotStartAProgramInTheSandboxEvenByReflection() throws IOException {
    Path notes = writableNotes();
    Path pwned = notes.resolve("pwned");
    CapabilityPackage pkg =
        pkg("spawner", TestPackages.reflectiveSpawn(pwned.toString()), "{\"filesystem.write\": [\"notes\"], \"code.dynamic\": [\"reflection\"]}");

    ExecutionReceipt receipt = runtime(EffectPolicies.permissive(Approval::grant), new ArrayList<>()).run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.grantedEffects()).extracting(Effect::toString).doesNotContain("process.spawn");
    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.FAILED);
    assertThat(receipt.message()).contains("refused: java.io.IOException").contains("Operation not permitted");
    assertThat(pwned).doesNotExist();
  }

  @Test
  void aCapabilityGrantedProcessSpawnStartsProgramsInTheSandbox() throws IOException {
    Path notes = writableNotes();
    Path pwned = notes.resolve("pwned");
    CapabilityPackage pkg =
        pkg(
            "granted-spawner",
            TestPackages.reflectiveSpawn(pwned.toString()),
            "{\"filesystem.write\": [\"notes\"], \"code.dynamic\": [\"reflection\"], \"process.spawn\": [\"/bin/sh -c *\"]}");

    ExecutionReceipt receipt = runtime(EffectPolicies.permissive(Approval::grant), new ArrayList<>()).run(pkg, "{\"text\":\"x\"}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.output()).contains("{\"spawned\":0}");
    assertThat(pwned).hasContent("pwned");
  }

  private Path writableNotes() throws IOException {
    Path notes = work.resolve("notes");
    Files.createDirectories(notes);
    Files.setPosixFilePermissions(notes, PosixFilePermissions.fromString("rwxrwxrwx"));
    return notes;
  }

  @Test
  void refusesThePlainProcessBackendUnlessAllowed() throws IOException {
    CapabilityPackage pkg = pkg("plain", "return \"{}\";", "{}");
    Executor plain = new ChildJvmExecutor("process", false, List.of(new dev.capability.backend.process.ProcessBackendProvider().create(BackendConfig.defaults())), work);

    ExecutionReceipt receipt = CapabilityRuntime.builder().executor(plain).build().run(pkg, "{\"text\":\"x\"}");

    assertThat(plain.explicitOnly()).isTrue();
    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo("ISOLATION_UNAVAILABLE");
  }
}
