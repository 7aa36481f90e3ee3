package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.ExecArgumentLimit;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each command in its own Bubblewrap sandbox: user, PID, IPC, UTS and cgroup namespaces, a
 * network namespace unless the spec's network is HOST, an allowlisted read-only filesystem with
 * only the writable roots writable, no capabilities, never real root, and the pinned bytes. See
 * {@code docs/backends/bwrap.md} for the threat model. Thread-safe: launches are independent.
 */
public final class BwrapBackend implements ExecutionBackend {
  /** The backend id. */
  public static final String ID = "bwrap";

  private static final Logger LOG = LoggerFactory.getLogger(BwrapBackend.class);
  private static final Duration SETTLE = Duration.ofSeconds(5);

  /**
   * Bytes counted for what the launcher adds to the command's arguments ({@code prlimit},
   * {@code flock}, {@code setpriv} and {@code bwrap} with their options, {@code env -u PWD --})
   * and for the {@code PWD} bwrap sets: well over what they take.
   */
  static final long LAUNCHER_BYTES = 4096;

  /**
   * Bytes counted for the egress relay's own arguments under filtered network (its path, the
   * socket's descriptor, the port, with their pointers), besides the executable's path, which it
   * is given again: well over what they take.
   */
  static final long RELAY_BYTES = 256;

  private final HostSupport support;
  private final Path base;
  private final SandboxLauncher launcher;
  private final SandboxIdentity identity;
  private final ExecArgumentLimit argumentLimit =
      ExecArgumentLimit.inheritedFromThisProcess("in the sandbox");

  private BwrapBackend(HostSupport support, BwrapSettings settings, Path base) {
    this.support = support;
    this.base = base;
    HostSupport.Setup setup = support.setup().orElseThrow();
    this.identity = setup.identity();
    this.launcher =
        new SandboxLauncher(
            setup.tools(),
            setup.identity(),
            settings,
            setup.flags(),
            setup.cgroup(),
            base,
            SETTLE,
            setup.relay());
  }

  /**
   * Probes this host for {@code config} and creates the backend.
   *
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} when a setting is invalid or
   *     sandboxes cannot run here as configured
   */
  public static BwrapBackend create(BackendConfig config) {
    BwrapSettings settings = BwrapSettings.from(Objects.requireNonNull(config, "config"));
    HostSupport support = HostProbe.probe(settings);
    if (!support.available()) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE, support.summary());
    }
    try {
      return new BwrapBackend(support, settings, RunDirectory.createBase(settings.workDirectory()));
    } catch (IOException e) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "cannot create a private directory in "
              + settings.workDirectory()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** Probes this host with default settings; never throws. */
  public static BackendProvider.Availability probeDefaults() {
    HostSupport support = HostProbe.probe(BwrapSettings.defaults());
    return new BackendProvider.Availability(support.available(), support.summary());
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Set<IsolationCapability> capabilities() {
    return support.capabilities();
  }

  /** bubblewrap's version as {@code bwrap --version} reported it, and the kernel's release. */
  @Override
  public Map<String, String> versions() {
    return Map.of(
        "bwrap", support.setup().orElseThrow().tools().version().toString(),
        "kernel", System.getProperty("os.version"));
  }

  @Override
  public Map<String, String> diagnostics() {
    return support.diagnostics();
  }

  @Override
  public Optional<String> cannotWriteIn(Path directory) {
    return identity.reachProblem(directory, "directory").or(() -> identity.writeProblem(directory));
  }

  @Override
  public LaunchResult launch(LaunchSpec spec) {
    Objects.requireNonNull(spec, "spec");
    Set<IsolationCapability> missing = EnumSet.noneOf(IsolationCapability.class);
    missing.addAll(spec.requiredCapabilities());
    missing.removeAll(support.capabilities());
    if (spec.network() == NetworkMode.FILTERED
        && !support.capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
      throw new NetworkFilterUnavailableException(
          "the bwrap backend cannot confine "
              + spec.executable().path()
              + " to the egress proxy on this machine: "
              + support.diagnostics().getOrDefault("FILTERED_EGRESS", "no egress relay"));
    }
    if (!missing.isEmpty()) {
      throw new BackendUnavailableException(
          BackendUnavailableException.ISOLATION_UNAVAILABLE,
          "the bwrap backend cannot provide "
              + missing
              + " on this machine, required to run "
              + spec.executable().path()
              + "; see its diagnostics for why");
    }
    List<String> argv = new ArrayList<>();
    argv.add(spec.executable().path().toString());
    argv.addAll(spec.arguments());
    long reserved = LAUNCHER_BYTES;
    if (spec.network() == NetworkMode.FILTERED) {
      // The relay executes the command from its path, given once more.
      reserved += RELAY_BYTES + ExecArgumentLimit.bytes(spec.executable().path().toString());
    }
    argumentLimit.check(
        spec.executable().path().toString(),
        argv,
        spec.environment(),
        reserved,
        "the launcher's own arguments and PWD");
    return launcher.launch(spec);
  }

  /** Removes the private directory; launches have all ended by then. */
  @Override
  public void close() {
    launcher.close();
    try (Stream<Path> leftovers = Files.list(base)) {
      for (Path leftover : leftovers.toList()) {
        LOG.warn("removing a leftover run directory {}", leftover);
      }
    } catch (IOException e) {
      LOG.debug("cannot list {}: {}", base, e.getMessage());
    }
    try {
      Files.deleteIfExists(base);
    } catch (IOException e) {
      LOG.warn("could not remove the private directory {}: {}", base, e.getMessage());
    }
  }
}
