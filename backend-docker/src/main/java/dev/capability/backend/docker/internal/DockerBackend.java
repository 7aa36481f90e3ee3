package dev.capability.backend.docker.internal;

import dev.capability.backend.support.EgressRelay;
import dev.capability.kernel.api.network.EgressSandbox;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.backend.support.WriteBudget;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Version;
import com.github.dockerjava.api.model.VersionComponent;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * The {@code docker} backend: each launch runs in its own hardened container, created, started,
 * waited for and removed through the daemon's API. Created only after a probe container showed what
 * this daemon enforces; it advertises exactly that.
 */
public final class DockerBackend implements ExecutionBackend {
  public static final String ID = "docker";

  private final DockerClient client;
  private final DockerSettings settings;
  private final Set<IsolationCapability> capabilities;
  private final Map<String, String> diagnostics;
  private final Map<String, String> versions;
  private final ContainerRun runs;

  private DockerBackend(
      DockerClient client,
      DockerSettings settings,
      Set<IsolationCapability> capabilities,
      Map<String, String> diagnostics,
      Map<String, String> versions,
      HostJvm jvm,
      String imageId,
      ExecLimit limit,
      boolean projectSeccomp,
      Optional<EgressRelay> relay,
      boolean remote) {
    this.client = client;
    this.settings = settings;
    this.capabilities = Set.copyOf(capabilities);
    this.diagnostics = Map.copyOf(diagnostics);
    this.versions = Map.copyOf(versions);
    this.runs = new ContainerRun(client, settings, jvm, imageId, limit, projectSeccomp, relay, remote);
  }

  /** Probes the daemon with default settings; never throws. */
  public static BackendProvider.Availability probeDefaults() {
    try (DockerBackend backend = create(BackendConfig.defaults(), false)) {
      return BackendProvider.Availability.available(backend.diagnostics.get("summary"));
    } catch (BackendUnavailableException e) {
      return BackendProvider.Availability.unavailable(e.getMessage());
    } catch (RuntimeException e) {
      return BackendProvider.Availability.unavailable("probing the docker daemon failed: " + e);
    }
  }

  /**
   * Connects, sweeps the leftovers of dead JVMs, probes, and creates the backend.
   *
   * @throws BackendUnavailableException when a setting is invalid, the daemon cannot be reached,
   *     the image is missing, or the probe container shows the defaults are not enforced
   */
  public static DockerBackend create(BackendConfig config) {
    return create(config, true);
  }

  private static DockerBackend create(BackendConfig config, boolean sweep) {
    Map<String, String> environment = System.getenv();
    DockerSettings settings = DockerSettings.from(Objects.requireNonNull(config, "config"), environment);
    String imageSource = DockerSettings.imageSource(config, environment);
    DockerEndpoint endpoint = DockerEndpoint.from(config, environment);
    boolean remote = endpoint.remote();
    DockerClient client = DockerClients.forEndpoint(endpoint);
    try {
      Map<String, String> diagnostics = new TreeMap<>();
      Version version = version(client, endpoint);
      diagnostics.put("daemon", endpoint.describe());
      diagnostics.put("version", version.getVersion() + " (API " + version.getApiVersion() + ")");
      diagnostics.put(
          "recursive-read-only-binds",
          "not used: every bind source with a file system mounted below it is refused");
      String imageId = image(client, settings, imageSource, endpoint);
      diagnostics.put("image", settings.image() + " " + imageId + " (" + imageSourceText(imageSource) + ")");
      HostJvm jvm = HostJvm.current();
      if (sweep) {
        int removed = new LeakSweep(client, jvm, settings.workDirectory()).sweep();
        diagnostics.put("leak-sweep", removed + " leftover container(s) of dead JVMs removed");
      }
      Optional<String> noProjectSeccomp = projectSeccompUnsupported(client, version);
      boolean projectSeccomp = noProjectSeccomp.isEmpty();
      diagnostics.put(
          "seccomp-profile",
          noProjectSeccomp
              .map(why -> "not applied: " + why)
              .orElse(
                  "the project's profile (SandboxSyscallPolicy) replaces the daemon's default in"
                      + " every container"));
      ContainerRun probeRun =
          new ContainerRun(
              client,
              settings,
              jvm,
              imageId,
              ExecLimit.forStack(Optional.empty()),
              projectSeccomp,
              Optional.empty(),
              remote);
      ProbeReport report = probe(probeRun, settings, remote);
      Set<IsolationCapability> verified = assess(report, settings, diagnostics, projectSeccomp);
      Optional<EgressRelay> relay;
      if (remote) {
        relay = Optional.empty();
        remoteCapabilities(verified, diagnostics);
      } else {
        relay = egressRelay(verified, settings, diagnostics);
        relay.ifPresent(r -> verified.add(IsolationCapability.FILTERED_EGRESS));
      }
      ExecLimit limit = ExecLimit.forStack(report.stackLimit());
      diagnostics.put(
          "argument-limit",
          limit.maxBytes() + " bytes of arguments and environment per command (" + limit.basis() + ")");
      diagnostics.put(
          "summary",
          "docker "
              + version.getVersion()
              + " (API "
              + version.getApiVersion()
              + ") at "
              + endpoint.describe()
              + (remote ? "; the workspace is shipped, nothing of this host is bound" : "")
              + "; image "
              + settings.image()
              + "; containers run as uid "
              + settings.uid());
      Map<String, String> versions = versions(version);
      if (projectSeccomp) {
        versions.putAll(profileDigests());
      }
      return new DockerBackend(
          client,
          settings,
          verified,
          diagnostics,
          versions,
          jvm,
          imageId,
          limit,
          projectSeccomp,
          relay,
          remote);
    } catch (RuntimeException e) {
      closeQuietly(client);
      throw e;
    }
  }

  /**
   * The relay of filtered egress: containers with network {@code none} (verified by the probe as
   * {@code NETWORK_NAMESPACE}) whose loopback is relayed to the proxy's socket by a program
   * compiled here and bound in. Without either, specs with filtered network are refused; the
   * reason is kept for FILTERED_EGRESS.
   */
  private static Optional<EgressRelay> egressRelay(
      Set<IsolationCapability> verified, DockerSettings settings, Map<String, String> diagnostics) {
    if (!verified.contains(IsolationCapability.NETWORK_NAMESPACE)) {
      diagnostics.put(
          "FILTERED_EGRESS",
          "not available: containers with network none are not confined to loopback here");
      return Optional.empty();
    }
    try {
      EgressRelay relay = EgressRelay.onThisHost(settings.workDirectory());
      diagnostics.put(
          "FILTERED_EGRESS",
          "network none, and the egress relay "
              + relay.executable()
              + " forwarding "
              + EgressSandbox.PROXY_HOST
              + ":"
              + EgressSandbox.PROXY_PORT
              + " to the run's proxy socket, both bound read-only at "
              + EgressRelay.SANDBOX_PATH
              + " and "
              + EgressSandbox.SOCKET);
      return Optional.of(relay);
    } catch (BackendUnavailableException e) {
      diagnostics.put("FILTERED_EGRESS", "not available: " + e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * What a remote daemon changes: the workspace is shipped ({@code REMOTE_WORKSPACE}); filtered
   * egress, which needs the proxy's Unix socket of this host bound in, and the write budget, which
   * measures the writable roots on this host, are not provided, so specs that need them are
   * refused rather than run without them.
   */
  private static void remoteCapabilities(
      Set<IsolationCapability> verified, Map<String, String> diagnostics) {
    verified.add(IsolationCapability.REMOTE_WORKSPACE);
    verified.remove(IsolationCapability.WRITE_BUDGET);
    diagnostics.put(
        "REMOTE_WORKSPACE",
        "the daemon is reached over TCP: the repository is shipped in and the writable roots are"
            + " brought back through the archive endpoint, in per-run volumes; no path of this"
            + " host is bound");
    diagnostics.put(
        "FILTERED_EGRESS",
        "not available on a remote daemon: the egress relay needs the proxy's Unix socket of this"
            + " host bound in");
    diagnostics.put(
        "WRITE_BUDGET",
        "not available on a remote daemon: the budget is measured on this host's writable roots;"
            + " the bytes brought back are bounded by the shipped workspace instead");
  }

  private static Version version(DockerClient client, DockerEndpoint endpoint) {
    try {
      client.pingCmd().exec();
      return client.versionCmd().exec();
    } catch (RuntimeException e) {
      throw endpoint.unreachable(e);
    }
  }

  /**
   * What the daemon says enforces its containers: its own version and API version, the kernel it
   * runs on, and the components it names (containerd, runc, docker-init), lower-cased.
   */
  static Map<String, String> versions(Version version) {
    Map<String, String> versions = new TreeMap<>();
    putIfKnown(versions, "daemon", version.getVersion());
    putIfKnown(versions, "api", version.getApiVersion());
    putIfKnown(versions, "kernel", version.getKernelVersion());
    if (version.getComponents() != null) {
      for (VersionComponent component : version.getComponents()) {
        String name = component.getName() == null ? "" : component.getName().toLowerCase(Locale.ROOT);
        if (!name.isEmpty() && !name.equals("engine")) {
          putIfKnown(versions, name, component.getVersion());
        }
      }
    }
    return versions;
  }

  /**
   * The digests of the project's seccomp profiles, recorded with the versions since they decide
   * what the kernel refuses: {@code seccomp-profile} for containers without a network, {@code
   * seccomp-profile-network} for those with one, each {@code sha256:} and the SHA-256 of the
   * profile's canonical JSON.
   */
  static Map<String, String> profileDigests() {
    return Map.of(
        "seccomp-profile", "sha256:" + SeccompProfile.sha256(NetworkMode.NONE),
        "seccomp-profile-network", "sha256:" + SeccompProfile.sha256(NetworkMode.HOST));
  }

  /**
   * Why the daemon cannot apply the project's seccomp profile, if it cannot: it reports no seccomp
   * support (then a custom profile is refused), or its API predates per-rule errors ({@code
   * errnoRet}, API 1.41, Docker 20.10), without which every rule would return EPERM and {@code
   * clone3} would no longer fall back to {@code clone}.
   */
  static Optional<String> projectSeccompUnsupported(DockerClient client, Version version) {
    List<String> securityOptions;
    try {
      securityOptions = client.infoCmd().exec().getSecurityOptions();
    } catch (RuntimeException e) {
      return Optional.of("the daemon's security options cannot be read: " + e.getMessage());
    }
    return projectSeccompUnsupported(
        securityOptions == null ? List.of() : securityOptions, version.getApiVersion());
  }

  static Optional<String> projectSeccompUnsupported(
      List<String> securityOptions, String apiVersion) {
    if (securityOptions.stream().noneMatch(o -> o.equals("seccomp") || o.startsWith("name=seccomp"))) {
      return Optional.of("the daemon reports no seccomp support (security options " + securityOptions + ")");
    }
    int[] api = apiVersion(apiVersion);
    if (api[0] < 1 || (api[0] == 1 && api[1] < 41)) {
      return Optional.of(
          "the daemon's API "
              + apiVersion
              + " predates per-rule errors in seccomp profiles (errnoRet, API 1.41, Docker 20.10)");
    }
    return Optional.empty();
  }

  private static int[] apiVersion(String apiVersion) {
    String[] parts = apiVersion == null ? new String[0] : apiVersion.strip().split("\\.");
    try {
      return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    } catch (RuntimeException e) {
      return new int[] {0, 0};
    }
  }

  private static void putIfKnown(Map<String, String> versions, String name, String value) {
    if (value != null && !value.isBlank()) {
      versions.put(name, value.strip());
    }
  }

  /** How the {@code image} diagnostic says where the image came from. */
  private static String imageSourceText(String source) {
    return source.equals(DockerSettings.IMAGE) || source.equals(DockerSettings.IMAGE_VARIABLE)
        ? "named by " + source
        : source;
  }

  /**
   * The id of the settings' image on the daemon; a missing one fails closed, naming the image,
   * where it was named and how to build it: the default by {@code capability image}, any other
   * {@code FROM} it.
   */
  private static String image(
      DockerClient client, DockerSettings settings, String imageSource, DockerEndpoint endpoint) {
    try {
      InspectImageResponse image = client.inspectImageCmd(settings.image()).exec();
      return image.getId();
    } catch (NotFoundException e) {
      if (!settings.allowPull()) {
        String runtimeImage = DockerSettings.defaultImage();
        String build =
            settings.image().equals(runtimeImage)
                ? "build it there without a registry with 'capability image' (from Java,"
                    + " dev.capability.backend.docker.LocalRuntimeImage)"
                : "build it there FROM the runtime image "
                    + runtimeImage
                    + " ('capability image' builds that one, without a registry), adding the"
                    + " programs and libraries your commands load";
        throw new BackendUnavailableException(
            BackendUnavailableException.UNAVAILABLE,
            "image "
                + settings.image()
                + " ("
                + imageSourceText(imageSource)
                + ") is not present on the docker daemon at "
                + endpoint.host()
                + " and the backend never pulls unless "
                + DockerSettings.ALLOW_PULL
                + "=true; "
                + build
                + " (see docs/backends/docker.md, The image)");
      }
    }
    try {
      client
          .pullImageCmd(settings.image())
          .exec(new PullImageResultCallback())
          .awaitCompletion(10, TimeUnit.MINUTES);
      return client.inspectImageCmd(settings.image()).exec().getId();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE, "interrupted while pulling " + settings.image());
    } catch (RuntimeException e) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "cannot pull " + settings.image() + ": " + e.getMessage(),
          e);
    }
  }

  /**
   * Runs the probe container: the host's {@code cat}, or on a remote daemon, whose image need not
   * hold the C library a dynamic {@code cat} needs, the host's static busybox as {@code cat}.
   */
  private static ProbeReport probe(ContainerRun run, DockerSettings settings, boolean remote) {
    List<Path> candidates =
        remote
            ? List.of(Path.of("/bin/busybox"), Path.of("/usr/bin/busybox"))
            : List.of(Path.of("/usr/bin/cat"), Path.of("/bin/cat"));
    Path cat =
        candidates.stream()
            .filter(Files::isRegularFile)
            .findFirst()
            .orElseThrow(
                () ->
                    new BackendUnavailableException(
                        BackendUnavailableException.UNAVAILABLE,
                        "no "
                            + (remote ? "static busybox (busybox-static)" : "cat")
                            + " at any of "
                            + candidates
                            + " to run the probe container with"));
    PinnedExecutable executable;
    try {
      Path real = cat.toRealPath();
      executable =
          new PinnedExecutable(
              real,
              Sha256.hex(Files.readAllBytes(real)),
              real.toString(),
              PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE, "cannot read " + cat + ": " + e, e);
    }
    LaunchSpec spec =
        LaunchSpec.builder(executable)
            .arguments(remote ? withApplet("cat", ProbeReport.FILES) : ProbeReport.FILES)
            .environment(Map.of())
            .workingDirectory(Path.of("/usr"))
            .timeout(Duration.ofSeconds(60))
            .maxOutputBytes(1 << 20)
            .build();
    LaunchResult result;
    try {
      result = run.run(spec);
    } catch (RuntimeException e) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "the probe container could not run in image "
              + settings.image()
              + ": "
              + e.getMessage(),
          e);
    }
    return ProbeReport.parse(result.stdout().text())
        .orElseThrow(
            () ->
                new BackendUnavailableException(
                    BackendUnavailableException.UNAVAILABLE,
                    "the probe container in image "
                        + settings.image()
                        + " did not report itself (exit "
                        + result.exitCode()
                        + "): "
                        + result.stderr().text().strip()));
  }

  private static List<String> withApplet(String applet, List<String> arguments) {
    List<String> all = new java.util.ArrayList<>();
    all.add(applet);
    all.addAll(arguments);
    return all;
  }

  /**
   * What the probe container showed this daemon enforces.
   *
   * @param projectSeccomp whether the probe ran with the project's seccomp profile
   */
  static Set<IsolationCapability> assess(
      ProbeReport report,
      DockerSettings settings,
      Map<String, String> diagnostics,
      boolean projectSeccomp) {
    if (report.environmentBytes() != 0) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "the probe container, given an empty environment, had "
              + report.environmentBytes()
              + " bytes of environment in PID 1 or itself; check "
              + DockerSettings.LAUNCHER
              + " and "
              + DockerSettings.INIT);
    }
    List<String> uids = report.ids("Uid");
    if (uids.isEmpty()
        || !uids.stream().allMatch(u -> u.equals(Integer.toString(settings.uid())))
        || settings.uid() == 0) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "the probe container ran with uids " + uids + ", not " + settings.uid());
    }
    Set<IsolationCapability> verified = EnumSet.of(IsolationCapability.NON_ROOT);
    check(
        verified,
        diagnostics,
        IsolationCapability.PID_NAMESPACE,
        "1".equals(report.status().get("PPid")),
        "the probe command's parent is pid "
            + report.status().get("PPid")
            + ", not the container's PID 1 (tini)");
    if (verified.contains(IsolationCapability.PID_NAMESPACE)) {
      verified.add(IsolationCapability.SESSION_TERMINATION);
      verified.add(IsolationCapability.TREE_TERMINATION);
      diagnostics.put(
          "termination",
          "container: a timeout signals tini (TERM, then KILL after the grace); when PID 1 ends,"
              + " the kernel ends the rest of the container's PID namespace");
    }
    verified.add(IsolationCapability.IPC_NAMESPACE);
    verified.add(IsolationCapability.READ_ONLY_REPOSITORY);
    verified.add(IsolationCapability.WRITABLE_SCOPE_ROOTS);
    check(
        verified,
        diagnostics,
        IsolationCapability.UTS_NAMESPACE,
        report.hostname().equals("sandbox"),
        "the probe container's host name is " + report.hostname());
    check(
        verified,
        diagnostics,
        IsolationCapability.NETWORK_NAMESPACE,
        report.interfaces().equals(List.of("lo")),
        "the probe container with network none saw interfaces " + report.interfaces());
    check(
        verified,
        diagnostics,
        IsolationCapability.CAPABILITY_DROP,
        report.noCapabilities(),
        "the probe container holds capabilities");
    check(
        verified,
        diagnostics,
        IsolationCapability.NO_NEW_PRIVILEGES,
        "1".equals(report.status().get("NoNewPrivs")),
        "the probe container runs without no_new_privs");
    // The project's profile replaces the daemon's default, which denies more: what it denies
    // beyond the policy needs capabilities, so the profile is the project's policy only together
    // with the capability drop (see docs/decisions.md).
    boolean filtered = "2".equals(report.status().get("Seccomp"));
    check(
        verified,
        diagnostics,
        IsolationCapability.SECCOMP,
        projectSeccomp && filtered && verified.contains(IsolationCapability.CAPABILITY_DROP),
        !projectSeccomp
            ? "the project's seccomp profile is not applied (see seccomp-profile)"
            : !filtered
                ? "the probe container, given the project's seccomp profile, runs without a filter"
                    + " (Seccomp "
                    + report.status().get("Seccomp")
                    + ")"
                : "the probe container holds capabilities, which the project's profile relies on"
                    + " having dropped");
    check(
        verified,
        diagnostics,
        IsolationCapability.NO_NESTED_USER_NAMESPACES,
        verified.contains(IsolationCapability.SECCOMP),
        "not claimed: only the project's seccomp profile denies unshare, setns and clone with"
            + " namespace flags, and it is not in force");
    check(
        verified,
        diagnostics,
        IsolationCapability.READ_ONLY_ROOT,
        report.readOnly("/"),
        "the probe container's root is not mounted read-only");
    check(
        verified,
        diagnostics,
        IsolationCapability.PRIVATE_TMP,
        "tmpfs".equals(report.mountTypes().get("/tmp")),
        "the probe container has no private /tmp");
    List<String> exposed =
        Stream.of("/run", "/var/run", "/home", "/root", "/var/lib/docker")
            .flatMap(d -> report.mountsUnder(d).stream())
            .toList();
    boolean socket = report.mounts().keySet().stream().anyMatch(p -> p.endsWith(".sock"));
    check(
        verified,
        diagnostics,
        IsolationCapability.HOST_SOCKETS_HIDDEN,
        exposed.isEmpty() && !socket,
        "the probe container shows " + exposed + (socket ? " and a socket" : ""));
    check(
        verified,
        diagnostics,
        IsolationCapability.MEMORY_LIMIT,
        report.memoryLimit().equals(Optional.of(Long.toString(settings.memoryBytes()))),
        "the probe container's memory limit is " + report.memoryLimit().orElse("unknown"));
    check(
        verified,
        diagnostics,
        IsolationCapability.PID_LIMIT,
        report.pidsLimit().equals(Optional.of(Long.toString(settings.pids()))),
        "the probe container's pids limit is " + report.pidsLimit().orElse("unknown"));
    // Every container is created with the spec's maxFileBytes as its fsize ulimit, which the
    // daemon applies or refuses to create the container.
    verified.add(IsolationCapability.FILE_SIZE_LIMIT);
    Optional<String> noWriteBudget = WriteBudget.unavailable();
    check(
        verified,
        diagnostics,
        IsolationCapability.WRITE_BUDGET,
        noWriteBudget.isEmpty(),
        "not available: " + noWriteBudget.orElse(""));
    check(
        verified,
        diagnostics,
        IsolationCapability.CPU_LIMIT,
        report.cpuLimit().map(q -> !q.startsWith("-") && !q.startsWith("max")).orElse(false),
        "the probe container's CPU quota is " + report.cpuLimit().orElse("unknown"));
    diagnostics.put(
        "USER_NAMESPACE",
        "not provided: containers share the host's uid map (the daemon's userns-remap is not"
            + " probed)");
    diagnostics.put(
        "CGROUP_NAMESPACE", "not claimed: cgroup v1 daemons share the host's cgroup namespace");
    return verified;
  }

  private static void check(
      Set<IsolationCapability> verified,
      Map<String, String> diagnostics,
      IsolationCapability capability,
      boolean ok,
      String why) {
    if (ok) {
      verified.add(capability);
    } else {
      diagnostics.put(capability.name(), why);
    }
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Set<IsolationCapability> capabilities() {
    return capabilities;
  }

  @Override
  public Map<String, String> versions() {
    return versions;
  }

  @Override
  public Map<String, String> diagnostics() {
    return new LinkedHashMap<>(diagnostics);
  }

  /** The settings this backend runs with. */
  public DockerSettings settings() {
    return settings;
  }

  @Override
  public LaunchResult launch(LaunchSpec spec) {
    Objects.requireNonNull(spec, "spec");
    Set<IsolationCapability> missing = EnumSet.noneOf(IsolationCapability.class);
    missing.addAll(spec.requiredCapabilities());
    missing.removeAll(capabilities);
    if (spec.network() == NetworkMode.FILTERED
        && !capabilities.contains(IsolationCapability.FILTERED_EGRESS)) {
      throw new NetworkFilterUnavailableException(
          "the docker backend cannot confine "
              + spec.executable().path()
              + " to the egress proxy on this daemon: "
              + diagnostics.getOrDefault("FILTERED_EGRESS", "no egress relay"));
    }
    if (!missing.isEmpty()) {
      throw new BackendUnavailableException(
          BackendUnavailableException.ISOLATION_UNAVAILABLE,
          "the docker backend cannot provide "
              + missing
              + " on this daemon, required to run "
              + spec.executable().path()
              + "; see its diagnostics for why");
    }
    return runs.run(spec);
  }

  @Override
  public void close() {
    closeQuietly(client);
  }

  private static void closeQuietly(DockerClient client) {
    try {
      client.close();
    } catch (IOException e) {
      LoggerFactory.getLogger(DockerBackend.class)
          .debug("closing the docker client failed: {}", e.getMessage());
    }
  }
}
