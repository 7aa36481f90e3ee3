package dev.capability.kernel.core;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.network.EgressGateway;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.api.store.DecisionRecord;
import dev.capability.kernel.api.store.DecisionStore;
import dev.capability.kernel.api.store.EvidenceNotRecordedException;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.core.internal.backend.BackendDiscovery;
import dev.capability.kernel.core.internal.backend.BackendRegistry;
import dev.capability.kernel.core.internal.egress.EgressGatewaySource;
import dev.capability.kernel.core.internal.exec.ExecutablePinner;
import dev.capability.kernel.core.internal.pipeline.CommandPipeline;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Runs commands that an untrusted party proposed, under authority the operator granted, and
 * attests what ran. Each {@link #execute} parses the command without a shell, decides it under
 * the policy, resolves and pins the executable, sanitizes the environment, selects a backend,
 * launches with bounds and returns the outcome with its attestation.
 *
 * <pre>{@code
 * try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.load(policyFile, repo)).build()) {
 *   ExecutionResult result = kernel.execute(ExecutionRequest.argv("git", "status", "--short").repository(repo).build());
 * }
 * }</pre>
 *
 * <p>Thread-safe: one kernel may execute many commands concurrently.
 */
public final class CommandKernel implements AutoCloseable {
  private final LoadedPolicy policy;
  private final BackendRegistry backends;
  private final CommandPipeline pipeline;
  private final @Nullable EvidenceStore evidence;
  private final @Nullable DecisionStore decisions;
  private final Clock clock;

  private CommandKernel(Builder b) {
    this.policy = b.policy;
    this.evidence = b.evidence;
    this.decisions = b.decisions;
    this.clock = b.clock;
    Map<String, BackendProvider> providers = new LinkedHashMap<>(b.discoverBackends
        ? BackendDiscovery.discover(b.classLoader)
        : Map.of());
    BackendDiscovery.byId(b.providers).forEach((id, provider) -> {
      if (providers.putIfAbsent(id, provider) != null) {
        throw new BackendUnavailableException(BackendUnavailableException.DUPLICATE,
            "the backend id '" + id + "' was registered twice; pass each backend once");
      }
    });
    this.backends = BackendRegistry.create(providers, b.backends, b.backendConfig);
    EgressGatewaySource gateways = b.egressGateway != null
        ? EgressGatewaySource.of(b.egressGateway)
        : EgressGatewaySource.discover(b.classLoader);
    this.pipeline = new CommandPipeline(
        policy, backends, gateways, new ExecutablePinner(), b.hostEnvironment, b.workingDirectory, b.clock, version());
  }

  /** A kernel builder for {@code policy}; backends are discovered on the class path unless switched off. */
  public static Builder builder(LoadedPolicy policy) {
    return new Builder(policy);
  }

  /**
   * Runs one command. Denials, timeouts, output limits, launch failures and non-zero exits are
   * states of the result.
   *
   * @throws dev.capability.kernel.api.BackendUnavailableException when no backend can supply what
   *     the policy and the request require (nothing was launched)
   * @throws dev.capability.kernel.api.network.NetworkFilterUnavailableException when the run's
   *     network is filtered and the chosen backend cannot confine it to the egress proxy, or no
   *     egress gateway is installed (nothing was launched)
   * @throws dev.capability.kernel.api.CapabilityException when the repository or working directory is not a directory
   * @throws EvidenceNotRecordedException when the evidence store failed; the result is attached
   */
  public ExecutionResult execute(ExecutionRequest request) {
    ExecutionResult result = pipeline.execute(Objects.requireNonNull(request, "request"));
    if (evidence != null) {
      try {
        evidence.record(result);
      } catch (RuntimeException e) {
        throw new EvidenceNotRecordedException(result, e);
      }
    }
    return result;
  }

  /**
   * Would {@code request} be allowed, and if not, which layer and rule refuse it. Launches nothing.
   * With a {@linkplain Builder#decisionStore decision store}, the decision is recorded there, timed
   * by this kernel's clock, before it is returned; a store that fails throws its exception.
   */
  public CheckResult check(ExecutionRequest request) {
    CheckResult result = pipeline.check(Objects.requireNonNull(request, "request"));
    if (decisions != null) {
      decisions.record(new DecisionRecord(
          result.argv(),
          Attestation.DecisionSummary.of(result.decision()),
          policy.hash(),
          result.executablePath().orElse(null),
          result.executableSha256().orElse(null),
          result.backendId().orElse(null),
          clock.instant()));
    }
    return result;
  }

  /** The policy this kernel enforces. */
  public LoadedPolicy policy() {
    return policy;
  }

  /** What was found about each backend; probes the backends this kernel has not needed yet. */
  public List<BackendStatus> backends() {
    return backends.statuses();
  }

  /** Probes every backend on the class path of {@code classLoader}, without a policy. */
  public static List<BackendStatus> probeBackends(ClassLoader classLoader, BackendConfig config) {
    try (BackendRegistry registry =
        BackendRegistry.create(BackendDiscovery.discover(classLoader), List.of(), config)) {
      return registry.statuses();
    }
  }

  /**
   * Whether an egress gateway is installed on the class path of {@code classLoader}: what a kernel
   * built with that loader and no {@link Builder#egressGateway} would use for filtered network.
   * Filtered network is available on a backend when this says installed and the backend advertises
   * {@link dev.capability.kernel.api.backend.IsolationCapability#FILTERED_EGRESS}.
   */
  public static EgressGatewayStatus probeEgressGateway(ClassLoader classLoader) {
    try {
      return new EgressGatewayStatus(EgressGatewaySource.discover(classLoader).require().id(), "");
    } catch (NetworkFilterUnavailableException e) {
      return new EgressGatewayStatus(null, e.getMessage());
    }
  }

  /** The version of the kernel, recorded in every attestation. */
  public static String version() {
    return Version.VALUE;
  }

  /** The version, read once: it is in the jar, which does not change under a running JVM. */
  private static final class Version {
    private static final String VALUE = read();

    private static String read() {
      Properties properties = new Properties();
      try (InputStream in = CommandKernel.class.getResourceAsStream("kernel-version.properties")) {
        if (in == null) {
          throw new IllegalStateException("kernel-version.properties is missing from the kernel-core jar");
        }
        properties.load(in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return properties.getProperty("version");
    }
  }

  @Override
  public void close() {
    backends.close();
  }

  /** Builds a {@link CommandKernel}. Defaults: discover backends with this class's loader, the process environment and working directory, the system clock. */
  public static final class Builder {
    private final LoadedPolicy policy;
    private final List<ExecutionBackend> backends = new ArrayList<>();
    private final List<BackendProvider> providers = new ArrayList<>();
    private boolean discoverBackends = true;
    private ClassLoader classLoader = CommandKernel.class.getClassLoader();
    private BackendConfig backendConfig = BackendConfig.defaults();
    private Map<String, String> hostEnvironment = System.getenv();
    private Path workingDirectory = Path.of("").toAbsolutePath();
    private Clock clock = Clock.systemUTC();
    private @Nullable EvidenceStore evidence;
    private @Nullable DecisionStore decisions;
    private @Nullable EgressGateway egressGateway;

    private Builder(LoadedPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
    }

    /** Adds a backend instance by hand. */
    public Builder backend(ExecutionBackend backend) {
      backends.add(Objects.requireNonNull(backend, "backend"));
      return this;
    }

    /**
     * Adds a backend provider by hand, probed (and its backend created) only when a request first
     * needs it, like the providers found on the class path.
     */
    public Builder backendProvider(BackendProvider provider) {
      providers.add(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /** Whether to find backends with {@link java.util.ServiceLoader}; on by default. */
    public Builder discoverBackends(boolean discover) {
      this.discoverBackends = discover;
      return this;
    }

    /** The class loader whose class path is searched for backend providers. */
    public Builder classLoader(ClassLoader classLoader) {
      this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
      return this;
    }

    public Builder backendConfig(BackendConfig backendConfig) {
      this.backendConfig = Objects.requireNonNull(backendConfig, "backendConfig");
      return this;
    }

    /** The environment inherited names are taken from; the process environment by default. */
    public Builder hostEnvironment(Map<String, String> hostEnvironment) {
      this.hostEnvironment = Map.copyOf(Objects.requireNonNull(hostEnvironment, "hostEnvironment"));
      return this;
    }

    /** Where commands run when a request names neither a working directory nor a repository. */
    public Builder workingDirectory(Path workingDirectory) {
      this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
      return this;
    }

    /**
     * Records every execution and denial in {@code store} (for example the SQLite ledger) after
     * the pipeline has finished. The kernel does not close it. A store that writes inside the
     * target repository ({@code .capability/}) should not write on its own between calls (the
     * SQLite ledger's timed checkpoints), or its writes show up in the next command's audit.
     */
    public Builder evidenceStore(EvidenceStore store) {
      this.evidence = Objects.requireNonNull(store, "store");
      return this;
    }

    /**
     * Records every decision {@link CommandKernel#check} makes in {@code store} (for example the
     * SQLite ledger). The kernel does not close it.
     */
    public Builder decisionStore(DecisionStore store) {
      this.decisions = Objects.requireNonNull(store, "store");
      return this;
    }

    /**
     * The gateway that opens the egress proxy of each run with filtered network. By default the
     * one {@link EgressGateway} provider on the class path of {@link #classLoader} (the jar
     * {@code capability-egress-proxy}), looked up when a run first needs it; without one, such a
     * run is refused with {@code NETWORK_FILTER_UNAVAILABLE}. The kernel does not close it.
     */
    public Builder egressGateway(EgressGateway gateway) {
      this.egressGateway = Objects.requireNonNull(gateway, "gateway");
      return this;
    }

    /** The clock of attestations and recorded decisions; the system clock by default. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public CommandKernel build() {
      return new CommandKernel(this);
    }
  }
}
