package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write grant the sandbox cannot use is refused as what it is, before anything is launched:
 * {@code GRANT_PATH_MISSING} for a path with no directory (the executor never creates one),
 * {@code GRANT_PATH_NOT_WRITABLE} for a directory the sandbox's uid cannot write. Under real
 * Bubblewrap, which knows its uid.
 */
class ChildJvmGrantPathTest {
  private static final BackendGate GATE = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String ENTRY = "com.example.Tool";
  @TempDir Path work;
  private Path notes;
  private Launches bwrap;

  /** The real bwrap backend, counting launches: a refusal before launch launches nothing. */
  private record Launches(ExecutionBackend real, AtomicInteger count) implements ExecutionBackend {
    @Override
    public String id() {
      return real.id();
    }

    @Override
    public Set<IsolationCapability> capabilities() {
      return real.capabilities();
    }

    @Override
    public Optional<String> cannotWriteIn(Path directory) {
      return real.cannotWriteIn(directory);
    }

    @Override
    public LaunchResult launch(LaunchSpec spec) {
      count.incrementAndGet();
      return real.launch(spec);
    }

    @Override
    public void close() {}
  }

  @BeforeEach
  void reachableBySandboxUser() throws IOException {
    bwrap = new Launches(GATE.backend(), new AtomicInteger());
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    notes = work.resolve("notes");
  }

  @AfterAll
  static void close() {
    GATE.close();
  }

  private ExecutionReceipt runWritingNotes() throws IOException {
    String body =
        "try { java.nio.file.Files.writeString(context.writablePaths().get(0).resolve(\"note\"), \"x\"); return \"{}\"; }"
            + " catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }";
    String source = """
        package com.example;
        public final class Tool implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) { %s }
          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
        }
        """.formatted(body);
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, source), null, Map.of());
    CapabilityPackage pkg = CapabilityPackages.open(
        TestPackages.directory(work.resolve("packages").resolve("notes"), jar, ENTRY, "{\"filesystem.write\": [\"notes\"]}"));
    Executor executor = new ChildJvmExecutor(bwrap.id(), false, List.of(bwrap), work);
    try (CapabilityRuntime runtime = CapabilityRuntime.builder().executor(executor).policy(EffectPolicies.permissive(Approval::grant)).build()) {
      return runtime.run(pkg, "{\"text\":\"x\"}");
    }
  }

  @Test
  void aMissingGrantedDirectoryIsRefusedAsMissingAndNeverCreated() throws IOException {
    ExecutionReceipt receipt = runWritingNotes();

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo(CapabilityCodes.GRANT_PATH_MISSING);
    assertThat(receipt.message()).contains("filesystem.write(notes)", notes.toString(), "does not exist", "mkdir");
    assertThat(notes).doesNotExist();
    assertThat(bwrap.count()).hasValue(0);
    assertThat(receipt.attestation()).isEmpty();
  }

  @Test
  void aGrantedFileWhereADirectoryIsNeededIsRefusedAsMissing() throws IOException {
    Files.writeString(notes, "not a directory");

    ExecutionReceipt receipt = runWritingNotes();

    assertThat(receipt.code()).isEqualTo(CapabilityCodes.GRANT_PATH_MISSING);
    assertThat(receipt.message()).contains("not a directory");
    assertThat(bwrap.count()).hasValue(0);
  }

  @Test
  void aGrantedDirectoryTheSandboxUidCannotWriteIsRefusedSayingWhatToChange() throws IOException {
    Files.createDirectory(notes);
    Files.setPosixFilePermissions(notes, PosixFilePermissions.fromString("r-xr-xr-x"));

    ExecutionReceipt receipt = runWritingNotes();

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo(CapabilityCodes.GRANT_PATH_NOT_WRITABLE);
    assertThat(receipt.message()).contains("filesystem.write(notes)", "not writable by the sandbox's uid", "chown");
    assertThat(bwrap.count()).hasValue(0);
    assertThat(notes.resolve("note")).doesNotExist();
  }

  @Test
  void aGrantedDirectoryTheSandboxUidCanWriteRuns() throws IOException {
    Files.createDirectory(notes);
    Files.setPosixFilePermissions(notes, PosixFilePermissions.fromString("rwxrwxrwx"));

    ExecutionReceipt receipt = runWritingNotes();

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(bwrap.count()).hasValue(1);
    assertThat(notes.resolve("note")).hasContent("x");
  }
}
