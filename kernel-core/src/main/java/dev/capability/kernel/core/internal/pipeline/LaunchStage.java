package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.EgressLimits;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSandbox;
import dev.capability.kernel.api.network.EgressSession;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.audit.EntryType;
import dev.capability.kernel.core.internal.audit.RepositorySnapshot;
import dev.capability.workspace.FileFingerprint;
import dev.capability.workspace.RepositoryWorkspace;
import java.time.Duration;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Stage 8: the backend runs the pinned executable under the tighter of the policy's and the
 * request's bounds. For filtered network the run gets its own egress proxy, allowing the policy's
 * egress destinations: opened just before launch, closed once the command has ended, its record of
 * connection attempts kept for the attestation. A proxy that cannot start fails the launch. A
 * backend that advertises {@code REMOTE_WORKSPACE} gets the repository shipped ({@link
 * RepositoryWorkspace}) and its outcome is kept for the result and the attestation.
 */
final class LaunchStage implements Stage {
  /**
   * The ledger's directory in a repository: not shipped to a remote backend, since the command
   * has no use for the evidence of earlier runs, and it would grow every archive and change under
   * a run whose ledger records concurrently (see docs/decisions.md).
   */
  private static final String LEDGER_DIRECTORY = ".capability";

  private final ExecutionPolicy policy;

  LaunchStage(ExecutionPolicy policy) {
    this.policy = policy;
  }

  /** The paths a backend must keep read-only even under a writable root: the repository's git directories and its protected paths. */
  private static List<Path> protectedPaths(ExecutionContext context) {
    List<Path> paths = new ArrayList<>(context.authority.protectedPaths().gitDirectories());
    paths.addAll(context.authority.protectedPaths().mountablePaths(context.repository.orElseThrow()));
    return paths;
  }

  /**
   * The writable roots as a backend can mount them. A write scope that names an existing file in
   * full ({@code pom.xml}, a correction radius's {@code src/main/java/Calc.java}) has that file as
   * its root, and the backends mount directories: such a root is mounted by the directory that
   * holds it, as a wildcard scope's root is wider than the scope, and the audit after the command
   * holds every write to the scope itself. Roots under another root are dropped.
   */
  static List<Path> mountableRoots(List<Path> roots) {
    TreeSet<Path> mounted = new TreeSet<>();
    for (Path root : roots) {
      mounted.add(Files.isRegularFile(root, LinkOption.NOFOLLOW_LINKS) && root.getParent() != null ? root.getParent() : root);
    }
    return mounted.stream().filter(root -> mounted.stream().noneMatch(other -> !other.equals(root) && root.startsWith(other))).toList();
  }

  @Override
  public void apply(ExecutionContext context) {
    if (context.egressGateway == null) {
      launch(context, spec(context, context.launchEnvironment));
      return;
    }
    EgressSession session;
    try {
      session = context.egressGateway.open(
          new EgressRules(policy.egressAllowed(), policy.egressPrivateAddressNames(), EgressLimits.DEFAULT));
    } catch (NetworkFilterUnavailableException e) {
      context.launchFailure = e.code() + ": " + e.getMessage();
      return;
    }
    try {
      // The kernel's proxy variables win over any the policy sets or passes on: the proxy is the only way out.
      Map<String, String> environment = new TreeMap<>(context.launchEnvironment);
      environment.putAll(EgressSandbox.environment());
      launch(context, spec(context, environment).egressSocket(session.socket()));
    } finally {
      session.close();
      context.egress = session.connections();
    }
  }

  /**
   * Launches, shipping the repository when the backend cannot bind it: the backend applies the
   * returned writable roots (or they are refused) inside its launch, so the audit that follows sees
   * exactly what reached the repository, as after a local run.
   */
  private static void launch(ExecutionContext context, LaunchSpec.Builder spec) {
    @Nullable RepositoryWorkspace workspace = shippedWorkspace(context);
    try {
      context.launch = context.backend.launch(spec.workspace(workspace).build());
    } catch (LaunchFailedException e) {
      context.launchFailure = e.code().equals(LaunchFailedException.CODE) ? e.getMessage() : e.code() + ": " + e.getMessage();
    } finally {
      if (workspace != null) {
        context.workspace = workspace.outcome();
      }
    }
  }

  /** The workspace to ship, exactly when the backend advertises {@code REMOTE_WORKSPACE} and the run has a repository. */
  private static @Nullable RepositoryWorkspace shippedWorkspace(ExecutionContext context) {
    if (context.repository.isEmpty() || !context.backend.capabilities().contains(IsolationCapability.REMOTE_WORKSPACE)) {
      return null;
    }
    return RepositoryWorkspace.builder(context.repository.get(), context.inputTreeHash)
        .writableRoots(mountableRoots(context.authority.writableRoots()))
        .protectedPaths(protectedPaths(context))
        .excludedPaths(List.of(context.repository.get().resolve(LEDGER_DIRECTORY)))
        .expectedFiles(snapshotFiles(context.snapshot))
        .build();
  }

  /** The regular files of the run's snapshot, so that the archive ships exactly what the input tree hash describes. */
  private static Map<String, FileFingerprint> snapshotFiles(RepositorySnapshot snapshot) {
    Map<String, FileFingerprint> files = new HashMap<>();
    snapshot.entries().forEach((path, state) -> {
      if (state.type() == EntryType.FILE) {
        files.put(path, new FileFingerprint(state.size(), state.inode(), state.modifiedNanos(), state.changedNanos(), state.contentHash()));
      }
    });
    return files;
  }

  private LaunchSpec.Builder spec(ExecutionContext context, Map<String, String> environment) {
    Duration timeout = context.request.timeout()
        .filter(t -> t.compareTo(policy.timeout()) < 0)
        .orElse(policy.timeout());
    long maxOutput = Math.min(context.request.maxOutputBytes().orElse(Long.MAX_VALUE), policy.maxOutputBytes());
    return LaunchSpec.builder(context.pinned.executable())
        .arguments(context.launchArgv.subList(1, context.launchArgv.size()))
        .environment(environment)
        .workingDirectory(context.workingDirectory)
        .stdin(context.request.stdin().orElse(null))
        .timeout(timeout)
        .maxOutputBytes(maxOutput)
        .maxFileBytes(policy.maxFileBytes())
        .maxWriteBytes(policy.maxWriteBytes())
        .network(context.authority.networkMode().orElseThrow())
        .repository(context.repository.orElse(null))
        .writableRoots(context.repository.isPresent() ? mountableRoots(context.authority.writableRoots()) : List.of())
        .protectedPaths(context.repository.isPresent() ? protectedPaths(context) : List.of())
        .requiredCapabilities(context.requiredCapabilities);
  }
}
