package dev.capability.capability.runtime;

import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The main of a test's child JVM, started where JNA cannot load: runs, on the child-JVM executor
 * over the process backend, a capability that creates {@code <work>/marks/loaded} when its class
 * initializes and was not granted {@code process.spawn}, and prints the receipt's outcome, code,
 * whether it has an attestation, and its message, one per line.
 */
public final class ProgramStartRefusalProbe {
  private static final String ENTRY = "com.example.Tool";

  private ProgramStartRefusalProbe() {}

  public static void main(String[] args) throws IOException {
    Path work = Path.of(args[0]);
    Path marks = Files.createDirectories(work.resolve("marks"));
    String marker =
        "try { java.nio.file.Files.createFile(java.nio.file.Path.of(\"" + marks.resolve("loaded")
            + "\")); } catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }";
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, marker, "return \"{}\";")), null, Map.of());
    CapabilityPackage pkg = CapabilityPackages.open(TestPackages.directory(work.resolve("package"), jar, ENTRY, "{\"filesystem.write\": [\"marks\"]}"));
    try (ExecutionBackend backend = new ProcessBackendProvider().create(BackendConfig.defaults())) {
      Executor executor = new ChildJvmExecutor("process", true, List.of(backend), work);
      ExecutionReceipt receipt =
          CapabilityRuntime.builder().executor(executor).policy(EffectPolicies.permissive(Approval::grant)).build().run(pkg, "{\"text\":\"x\"}");
      System.out.println(receipt.outcome());
      System.out.println(receipt.code());
      System.out.println(receipt.attestation().isPresent() ? "attested" : "no attestation");
      System.out.println(receipt.message());
    }
  }
}
