package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressGateway;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSandbox;
import dev.capability.kernel.api.network.EgressSession;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filtered network fails closed: a run that needs it is refused before launch unless the chosen
 * backend confines commands to the egress proxy and a gateway is installed, and it is never run
 * with no network or the host's instead. When it runs, the kernel hands the backend the session's
 * socket and the proxy variables, closes the session after the command, and attests every attempt.
 * The gateway and the backend that advertises {@code FILTERED_EGRESS} here are in-JVM stand-ins,
 * so that the kernel's own part is checked on every machine; the real proxy under bwrap is
 * {@code FilteredEgressGitTest} in the CLI module.
 */
class FilteredNetworkPipelineTest {
  private static final Set<IsolationCapability> SANDBOX = EnumSet.of(
      IsolationCapability.PID_NAMESPACE, IsolationCapability.READ_ONLY_ROOT, IsolationCapability.NON_ROOT,
      IsolationCapability.NETWORK_NAMESPACE, IsolationCapability.FILTERED_EGRESS);
  private static final List<EgressDestination> ALLOWED = List.of(EgressDestination.parse("git.test:8080"));

  @TempDir Path tmp;
  private Path marker;
  private Path tool;

  @BeforeEach
  void tool() {
    marker = tmp.resolve("ran");
    tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker);
  }

  private LoadedPolicy policy(NetworkMode network, boolean fallback) {
    ExecutionPolicy.Builder policy = ExecutionPolicy.builder()
        .network(network)
        .allowUnisolatedFallback(fallback)
        .executable(ExecutableRule.atPath("tool", tool).exact().build());
    if (network == NetworkMode.FILTERED) {
      policy.egressAllowed(ALLOWED).egressPrivateAddressNames(Set.of("git.test"));
    }
    return ExecutionPolicies.of(policy.build());
  }

  /** A class loader that sees no plugin at all: no egress gateway is installed. */
  private static ClassLoader nothingInstalled() {
    return new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader());
  }

  private static ExecutionRequest request(Path tool) {
    return ExecutionRequest.argv(tool.toString()).build();
  }

  @Test
  void theProcessBackendIsRefusedForFilteredNetworkBeforeLaunchEvenWhenNamed() {
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.FILTERED, true))
        .hostEnvironment(Map.of()).workingDirectory(tmp).egressGateway(new StandInGateway()).build()) {
      ExecutionRequest named = ExecutionRequest.argv(tool.toString()).backend("process").build();

      assertThatThrownBy(() -> kernel.execute(named))
          .isInstanceOfSatisfying(NetworkFilterUnavailableException.class,
              e -> assertThat(e.code()).isEqualTo("NETWORK_FILTER_UNAVAILABLE"))
          .hasMessageContaining("FILTERED_EGRESS")
          .hasMessageContaining("backend 'process' cannot supply [FILTERED_EGRESS]");
      assertThatThrownBy(() -> kernel.execute(request(tool)))
          .isInstanceOf(NetworkFilterUnavailableException.class)
          .hasMessageContaining("process (not a sandbox, lacks [FILTERED_EGRESS, NON_ROOT, PID_NAMESPACE, READ_ONLY_ROOT])");
      assertThat(marker).doesNotExist();
      CheckResult check = kernel.check(named);
      assertThat(check.decision().allowed()).isFalse();
      assertThat(check.decision().code()).isEqualTo(NetworkFilterUnavailableException.CODE);
    }
  }

  @Test
  void aBackendThatCanFilterIsRefusedWhenNoEgressGatewayIsInstalled() {
    RecordingBackend backend = new RecordingBackend(SANDBOX, null);
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.FILTERED, false))
        .discoverBackends(false).backend(backend).classLoader(nothingInstalled())
        .hostEnvironment(Map.of()).workingDirectory(tmp).build()) {

      assertThatThrownBy(() -> kernel.execute(request(tool)))
          .isInstanceOfSatisfying(NetworkFilterUnavailableException.class,
              e -> assertThat(e.code()).isEqualTo("NETWORK_FILTER_UNAVAILABLE"))
          .hasMessageContaining("no egress gateway is installed");
      assertThat(backend.launched).isEmpty();
      assertThat(kernel.check(request(tool)).decision().code()).isEqualTo(NetworkFilterUnavailableException.CODE);
    }
    assertThat(CommandKernel.probeEgressGateway(nothingInstalled()).installed()).isFalse();
    assertThat(CommandKernel.probeEgressGateway(nothingInstalled()).reason()).contains("capability-egress-proxy");
  }

  @Test
  void aBackendWithANetworkNamespaceButNoFilterIsNotUsedToRunWithoutNetworkInstead() {
    Set<IsolationCapability> noFilter = EnumSet.copyOf(SANDBOX);
    noFilter.remove(IsolationCapability.FILTERED_EGRESS);
    RecordingBackend backend = new RecordingBackend(noFilter, null);
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.FILTERED, false))
        .discoverBackends(false).backend(backend).egressGateway(new StandInGateway())
        .hostEnvironment(Map.of()).workingDirectory(tmp).build()) {

      assertThatThrownBy(() -> kernel.execute(request(tool))).isInstanceOf(NetworkFilterUnavailableException.class);
      assertThat(backend.launched).isEmpty();
    }
  }

  @Test
  void aFilteredRunGetsItsOwnProxyWhichIsClosedAfterTheCommandAndAttested() {
    StandInGateway gateway = new StandInGateway();
    RecordingBackend backend = new RecordingBackend(SANDBOX, gateway);
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.FILTERED, false))
        .discoverBackends(false).backend(backend).egressGateway(gateway).classLoader(nothingInstalled())
        .hostEnvironment(Map.of()).workingDirectory(tmp).build()) {

      ExecutionResult result = kernel.execute(request(tool));

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(gateway.opened).containsExactly(new EgressRules(ALLOWED, Set.of("git.test"), gateway.opened.get(0).limits()));
      LaunchSpec spec = backend.launched.get(0);
      assertThat(spec.network()).isEqualTo(NetworkMode.FILTERED);
      assertThat(spec.egressSocket()).contains(gateway.session.socket());
      assertThat(spec.environment()).containsAllEntriesOf(EgressSandbox.environment());
      assertThat(backend.sessionOpenAtLaunch).isTrue();
      assertThat(gateway.session.closed).isTrue();

      Attestation attestation = result.attestation();
      assertThat(attestation.network()).isEqualTo(NetworkMode.FILTERED);
      assertThat(attestation.egress()).isEqualTo(StandInGateway.CONNECTIONS);
      assertThat(attestation.violations()).containsExactly(new Attestation.Violation(
          "other.test:8080", EgressRefusal.NOT_GRANTED, "operator", "egress.allow",
          "the egress proxy refused the connect connection to other.test:8080: EGRESS_NOT_GRANTED"));
      assertThat(AttestationJson.fromJson(dev.capability.kernel.api.json.CanonicalJson.serialize(AttestationJson.toMap(attestation))))
          .isEqualTo(attestation);
    }
  }

  @Test
  void aPhaseMayNarrowHostNetworkToFilteredWithNoDestinations() {
    StandInGateway gateway = new StandInGateway();
    RecordingBackend backend = new RecordingBackend(SANDBOX, gateway);
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.HOST, false))
        .discoverBackends(false).backend(backend).egressGateway(gateway)
        .hostEnvironment(Map.of()).workingDirectory(tmp).build()) {
      ExecutionRequest request = ExecutionRequest.argv(tool.toString())
          .layer(AuthorityLayer.builder(AuthorityLayer.Kind.PHASE, "phase.json").network(NetworkMode.FILTERED).build())
          .build();

      ExecutionResult result = kernel.execute(request);

      assertThat(result.attestation().network()).isEqualTo(NetworkMode.FILTERED);
      assertThat(gateway.opened.get(0).allowed()).isEmpty();
      assertThat(backend.launched.get(0).network()).isEqualTo(NetworkMode.FILTERED);
    }
  }

  @Test
  void theGatewayOnTheClassPathIsLoadedOnlyWhenARunNeedsFilteredNetwork() throws IOException {
    ClassLoader listing = listing(DiscoveredGateway.class);
    DiscoveredGateway.CREATED.set(0);
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.HOST, true))
        .classLoader(listing).hostEnvironment(Map.of()).workingDirectory(tmp).build()) {
      assertThat(kernel.execute(request(tool)).status()).isEqualTo(ExecutionStatus.COMPLETED);
    }
    assertThat(DiscoveredGateway.CREATED).hasValue(0);

    RecordingBackend backend = new RecordingBackend(SANDBOX, null);
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.FILTERED, false))
        .discoverBackends(false).backend(backend).classLoader(listing).hostEnvironment(Map.of()).workingDirectory(tmp).build()) {
      ExecutionResult result = kernel.execute(request(tool));

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(backend.launched.get(0).egressSocket()).contains(DiscoveredGateway.SOCKET);
      assertThat(result.attestation().egress()).isEmpty();
    }
    assertThat(DiscoveredGateway.CREATED).hasValue(1);
    assertThat(CommandKernel.probeEgressGateway(listing)).isEqualTo(new EgressGatewayStatus("discovered", ""));
  }

  @Test
  void twoGatewaysOnTheClassPathAreRefusedRatherThanOneChosen() throws IOException {
    RecordingBackend backend = new RecordingBackend(SANDBOX, null);
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.FILTERED, false))
        .discoverBackends(false).backend(backend).classLoader(listing(DiscoveredGateway.class, OtherGateway.class))
        .hostEnvironment(Map.of()).workingDirectory(tmp).build()) {

      assertThatThrownBy(() -> kernel.execute(request(tool)))
          .isInstanceOf(NetworkFilterUnavailableException.class)
          .hasMessageContaining("several egress gateways are installed [discovered, other]");
      assertThat(backend.launched).isEmpty();
    }
  }

  @Test
  void aProxyThatCannotStartFailsTheLaunchAndNothingRuns() {
    RecordingBackend backend = new RecordingBackend(SANDBOX, null);
    try (CommandKernel kernel = CommandKernel.builder(policy(NetworkMode.FILTERED, false))
        .discoverBackends(false).backend(backend).egressGateway(new OtherGateway())
        .hostEnvironment(Map.of()).workingDirectory(tmp).build()) {

      ExecutionResult result = kernel.execute(request(tool));

      assertThat(result.status()).isEqualTo(ExecutionStatus.LAUNCH_FAILED);
      assertThat(result.failureMessage()).isEqualTo("NETWORK_FILTER_UNAVAILABLE: never opened");
      assertThat(result.attestation().network()).isEqualTo(NetworkMode.FILTERED);
      assertThat(backend.launched).isEmpty();
    }
  }

  /** A class loader whose class path lists {@code gateways} as the egress gateway providers. */
  private ClassLoader listing(Class<?>... gateways) throws IOException {
    Path classPath = tmp.resolve("class-path");
    Path services = Files.createDirectories(classPath.resolve("META-INF/services"));
    StringBuilder lines = new StringBuilder();
    for (Class<?> gateway : gateways) {
      lines.append(gateway.getName()).append('\n');
    }
    Files.writeString(services.resolve(EgressGateway.class.getName()), lines);
    return new URLClassLoader(new URL[] {classPath.toUri().toURL()}, getClass().getClassLoader());
  }

  /** A provider found through {@code META-INF/services}; counts how often it is created. */
  public static final class DiscoveredGateway implements EgressGateway {
    static final AtomicInteger CREATED = new AtomicInteger();
    static final Path SOCKET = Path.of("/run/discovered/proxy.sock");

    public DiscoveredGateway() {
      CREATED.incrementAndGet();
    }

    @Override
    public String id() {
      return "discovered";
    }

    @Override
    public EgressSession open(EgressRules rules) {
      return new EgressSession() {
        @Override
        public Path socket() {
          return SOCKET;
        }

        @Override
        public List<EgressConnection> connections() {
          return List.of();
        }

        @Override
        public void close() {}
      };
    }
  }

  /** A second provider, with an id of its own. */
  public static final class OtherGateway implements EgressGateway {
    @Override
    public String id() {
      return "other";
    }

    @Override
    public EgressSession open(EgressRules rules) {
      throw new NetworkFilterUnavailableException("never opened");
    }
  }

  /** A gateway whose one session reports a fixed list of attempts. */
  private static final class StandInGateway implements EgressGateway {
    static final List<EgressConnection> CONNECTIONS = List.of(
        new EgressConnection("connect", "git.test", 8080, EgressConnection.Outcome.ALLOWED, null, "127.0.0.1", 90, 2048),
        new EgressConnection("connect", "other.test", 8080, EgressConnection.Outcome.REFUSED, EgressRefusal.NOT_GRANTED, null, 0, 0));
    final List<EgressRules> opened = new ArrayList<>();
    StandInSession session;

    @Override
    public String id() {
      return "stand-in";
    }

    @Override
    public EgressSession open(EgressRules rules) {
      opened.add(rules);
      session = new StandInSession();
      return session;
    }
  }

  private static final class StandInSession implements EgressSession {
    boolean closed;

    @Override
    public Path socket() {
      return Path.of("/run/stand-in/proxy.sock");
    }

    @Override
    public List<EgressConnection> connections() {
      return StandInGateway.CONNECTIONS;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  /** A backend that records what it was asked to launch and launches nothing. */
  private static final class RecordingBackend implements ExecutionBackend {
    private final Set<IsolationCapability> capabilities;
    private final StandInGateway gateway;
    final List<LaunchSpec> launched = new ArrayList<>();
    boolean sessionOpenAtLaunch;

    RecordingBackend(Set<IsolationCapability> capabilities, StandInGateway gateway) {
      this.capabilities = capabilities;
      this.gateway = gateway;
    }

    @Override
    public String id() {
      return "recording";
    }

    @Override
    public Set<IsolationCapability> capabilities() {
      return capabilities;
    }

    @Override
    public LaunchResult launch(LaunchSpec spec) {
      launched.add(spec);
      sessionOpenAtLaunch = gateway != null && gateway.session != null && !gateway.session.closed;
      Instant now = Instant.now();
      return new LaunchResult(OptionalInt.of(0), false, false, CapturedOutput.empty(), CapturedOutput.empty(), now, now, "none");
    }
  }
}
