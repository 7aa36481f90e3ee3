package dev.capability.junit5.internal;

import dev.capability.capability.runtime.CapabilityExecutors;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.EffectPolicies;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.ExecutorConfig;
import dev.capability.junit5.CapabilitySandbox;
import dev.capability.junit5.SandboxCodes;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.plugin.Plugins;
import dev.capability.kernel.core.Backends;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.LedgerReader;
import dev.capability.ledger.SqliteLedger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One test's sandbox, in a private directory of its own under {@code java.io.tmpdir}: {@code
 * policy/} (mode 0700) with the policy files (0600), {@code ledger/} (0700) with the SQLite ledger,
 * and {@code repository/}, the Git repository. The ledger and the policy are outside the
 * repository, so the kernel's policy-file checks hold and the ledger's writes never show up in a
 * command's audit. Closed (everything deleted) when the test's context closes.
 */
public final class Sandbox implements ExtensionContext.Store.CloseableResource {
  private final CapabilitySandbox settings;
  private final ClassLoader loader;
  private final Path workspace;
  private final Path repository;
  private final SqliteLedger ledger;
  private final RecordingStore recorder;
  private final ExecutionBackend backend;
  private final CommandKernel kernel;
  private @Nullable CapabilityRuntime runtime;

  private Sandbox(CapabilitySandbox settings, ClassLoader loader, Path workspace, Path repository, SqliteLedger ledger,
      ExecutionBackend backend, LoadedPolicy policy) {
    this.settings = settings;
    this.loader = loader;
    this.workspace = workspace;
    this.repository = repository;
    this.ledger = ledger;
    this.recorder = new RecordingStore(ledger);
    this.backend = backend;
    this.kernel = CommandKernel.builder(policy).discoverBackends(false).backend(backend)
        .evidenceStore(recorder).decisionStore(ledger).workingDirectory(repository).build();
  }

  /**
   * Sets up the sandbox {@code settings} describe. Probes the backend first, so that a test that
   * cannot run here is skipped (or failed, when {@code requireBackends}) before anything is made.
   */
  public static Sandbox open(CapabilitySandbox settings, ClassLoader loader, boolean requireBackends) {
    BackendProvider provider = provider(settings.backend(), loader);
    BackendProvider.Availability availability = provider.probe();
    if (!availability.available()) {
      String reason = "backend " + provider.id() + " is not available here: " + availability.reason();
      if (requireBackends) {
        Assertions.fail(reason + " (" + CapabilitySandbox.REQUIRE_BACKENDS_VARIABLE + "=1 or "
            + CapabilitySandbox.REQUIRE_BACKENDS_PARAMETER + "=true requires it)");
      }
      Assumptions.abort(reason + " (set " + CapabilitySandbox.REQUIRE_BACKENDS_VARIABLE + "=1 to fail instead)");
    }
    String policyText = PolicyText.read(settings.policy(), "policy", loader);
    Path workspace = createWorkspace();
    SqliteLedger ledger = null;
    ExecutionBackend backend = null;
    try {
      Path policyDirectory = privateDirectory(workspace.resolve("policy"));
      Path policyFile = privateFile(policyDirectory.resolve("policy.json"), policyText);
      Path repository = Files.createDirectory(workspace.resolve("repository"));
      GitRepository.create(repository, privateDirectory(workspace.resolve("git-home")));
      // A sandbox may run as another uid (Bubblewrap under root runs as nobody): it must be able
      // to create files here. Sticky, so that no other user can replace what the test made.
      Files.setAttribute(repository, "unix:mode", 01777);
      repository = repository.toRealPath();
      LoadedPolicy policy = ExecutionPolicies.load(policyFile, repository);
      ledger = SqliteLedger.open(privateDirectory(workspace.resolve("ledger")).resolve("ledger.db"), LedgerOptions.defaults());
      backend = provider.create(BackendConfig.defaults());
      return new Sandbox(settings, loader, workspace, repository, ledger, backend, policy);
    } catch (IOException | RuntimeException e) {
      if (backend != null) {
        backend.close();
      }
      if (ledger != null) {
        ledger.close();
      }
      try {
        delete(workspace);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      if (e instanceof IOException io) {
        throw new CapabilityException(SandboxCodes.SANDBOX_SETUP_FAILED, "cannot set up the test's sandbox in " + workspace + ": " + io, io);
      }
      throw (RuntimeException) e;
    }
  }

  private static BackendProvider provider(String id, ClassLoader loader) {
    Map<String, BackendProvider> installed = Plugins.load(BackendProvider.class, BackendProvider::id, loader);
    BackendProvider provider = installed.get(id);
    if (provider == null) {
      throw new CapabilityException(SandboxCodes.SANDBOX_BACKEND_UNKNOWN,
          "@CapabilitySandbox names the backend '" + id + "', which is not installed; installed: "
              + installed.keySet().stream().sorted().toList() + " (add capability-backend-" + id + " to the test class path)");
    }
    return provider;
  }

  private static Path createWorkspace() {
    try {
      Path workspace = Files.createTempDirectory("capability-junit5-");
      // Readable, not writable, by others: the sandbox's uid must reach the repository below it.
      Files.setPosixFilePermissions(workspace, PosixFilePermissions.fromString("rwxr-xr-x"));
      return workspace.toRealPath();
    } catch (IOException e) {
      throw new CapabilityException(SandboxCodes.SANDBOX_SETUP_FAILED, "cannot create the test's sandbox directory: " + e, e);
    }
  }

  private static Path privateDirectory(Path path) throws IOException {
    return Files.createDirectory(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }

  private static Path privateFile(Path path, String text) throws IOException {
    Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(path, text, StandardCharsets.UTF_8);
    return path;
  }

  public CommandKernel kernel() {
    return kernel;
  }

  public Path repository() {
    return repository;
  }

  public LedgerReader ledgerReader() {
    return ledger.reader();
  }

  public boolean failOnWriteViolations() {
    return settings.failOnWriteViolations();
  }

  /** The message that fails the test for its write-scope violations, or empty. */
  public Optional<String> writeScopeViolations() {
    return WriteScopeViolations.message(recorder.executions());
  }

  /**
   * The runtime, made on first use: the child-JVM executor on this sandbox's backend (named, so a
   * test that names the {@code process} backend gets it), with the annotation's effect policy,
   * recording into the test's ledger.
   */
  public synchronized CapabilityRuntime runtime() {
    if (runtime == null) {
      EffectPolicy policy = settings.capabilityPolicy().isEmpty()
          ? EffectPolicies.denyAll()
          : loadEffectPolicy(PolicyText.read(settings.capabilityPolicy(), "capabilityPolicy", loader));
      ExecutorConfig config = new ExecutorConfig(repository, Backends.given(List.of(backend)), Map.of(
          CapabilityExecutors.CHILD_JVM_BACKEND, backend.id(),
          CapabilityExecutors.CHILD_JVM_ALLOW_UNISOLATED, "true"));
      runtime = CapabilityRuntime.builder().policy(policy).executor(CapabilityExecutors.CHILD_JVM)
          .executorConfig(config).evidenceStore(recorder).classLoader(loader).build();
    }
    return runtime;
  }

  private EffectPolicy loadEffectPolicy(String text) {
    try {
      return EffectPolicies.load(privateFile(workspace.resolve("policy").resolve("capability-policy.json"), text));
    } catch (IOException e) {
      throw new CapabilityException(SandboxCodes.SANDBOX_SETUP_FAILED, "cannot write the capability policy: " + e, e);
    }
  }

  /** Closes the runtime, the kernel (and with it the backend it was given) and the ledger, then deletes the directory; each step runs whatever the one before did. */
  @Override
  public void close() throws IOException {
    try {
      synchronized (this) {
        if (runtime != null) {
          runtime.close();
        }
      }
    } finally {
      try {
        kernel.close();
      } finally {
        try {
          ledger.close();
        } finally {
          delete(workspace);
        }
      }
    }
  }

  /** Deletes {@code root} and everything below it, never following a symbolic link. */
  private static void delete(Path root) throws IOException {
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        // A sandboxed command may have left a directory this user cannot list or delete from.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
        if (failure != null) {
          throw failure;
        }
        Files.delete(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
