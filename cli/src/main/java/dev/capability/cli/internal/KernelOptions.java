package dev.capability.cli.internal;

import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.core.AuthorityLayers;
import dev.capability.ledger.LedgerOptions;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Options shared by {@code check} and {@code exec}: where the policy comes from and the target repository. */
final class KernelOptions {
  static final String POLICY_ENV = "CAPABILITY_EXECUTION_POLICY_PATH";

  @Option(names = "--policy", paramLabel = "FILE",
      description = "The operator policy (JSON). Default: the file named by " + POLICY_ENV
          + ", else $${XDG_CONFIG_HOME:-~/.config}/capability/policy.json (capability policy init).")
  Path policy;

  @Option(names = "--repo", paramLabel = "DIR", description = "The target repository.")
  Path repository;

  @Option(names = "--no-ledger", description = "Do not record into the repository's ledger (.capability/state.db).")
  boolean noLedger;

  @Option(names = "--contract", paramLabel = "FILE", description = "A project-contract layer (JSON) that narrows the policy.")
  Path contract;

  @Option(names = "--phase", paramLabel = "FILE", description = "A phase layer (JSON) that narrows the policy.")
  Path phase;

  @Option(names = "--correction", paramLabel = "FILE", description = "A correction layer (JSON) that narrows the policy.")
  Path correction;

  /**
   * The repository's ledger, opened with its first record, when a repository was given and
   * --no-ledger was not.
   */
  Optional<RepositoryLedger> ledger() {
    return noLedger || repository == null
        ? Optional.empty()
        : Optional.of(new RepositoryLedger(repository().orElseThrow(), LedgerOptions.defaults()));
  }

  /** The request builder with the repository and the layers these options name. */
  ExecutionRequest.Builder narrow(ExecutionRequest.Builder request) {
    repository().ifPresent(request::repository);
    AuthorityLayers.load(contract, phase, correction)
        .forEach(request::layer);
    return request;
  }

  Optional<Path> repository() {
    return Optional.ofNullable(repository).map(p -> p.toAbsolutePath());
  }

  /** The policy from --policy, else the environment, else the default file (see {@link PolicyLocation}). */
  LoadedPolicy loadPolicy(Console console) {
    return ExecutionPolicies.load(PolicyLocation.resolve(Optional.ofNullable(policy), console.environment()).file(), repository().orElse(null));
  }

  /**
   * The kernel, recording its executions and decisions into {@code ledger} when there is one (may
   * be null). Whether a backend is available is answered from the probe cache when it can be; the
   * backend itself is created, and probed, live ({@link LaunchingBackendProvider}).
   */
  CommandKernel kernel(Console console, RepositoryLedger ledger) {
    CommandKernel.Builder builder = CommandKernel.builder(loadPolicy(console)).discoverBackends(false);
    LaunchingBackendProvider.forEachProvider(KernelOptions.class.getClassLoader(), probeCache(console), console.environment())
        .forEach(builder::backendProvider);
    return kernel(console, ledger, builder);
  }

  /**
   * A kernel that decides and launches nothing: its backends are what the probe cache learned
   * ({@link BackendProbeCache}), each probed live only when a decision first needs it and the
   * cache has nothing for its present identity.
   */
  CommandKernel decidingKernel(Console console, RepositoryLedger ledger) {
    CommandKernel.Builder builder = CommandKernel.builder(loadPolicy(console)).discoverBackends(false);
    CachedBackendProvider.forEachProvider(KernelOptions.class.getClassLoader(), probeCache(console), console.environment())
        .forEach(builder::backendProvider);
    return kernel(console, ledger, builder);
  }

  private static BackendProbeCache probeCache(Console console) {
    return BackendProbeCache.forUser(console.environment(), notice -> console.err().println("capability: " + notice));
  }

  private CommandKernel kernel(Console console, RepositoryLedger ledger, CommandKernel.Builder builder) {
    builder.hostEnvironment(console.environment());
    if (ledger != null) {
      builder.evidenceStore(ledger).decisionStore(ledger);
    }
    return builder.build();
  }
}
