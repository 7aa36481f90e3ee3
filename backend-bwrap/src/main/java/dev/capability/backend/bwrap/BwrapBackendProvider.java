package dev.capability.backend.bwrap;

import dev.capability.backend.bwrap.internal.BwrapBackend;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.Objects;

/**
 * Provides the {@code bwrap} backend: each command runs in its own Bubblewrap sandbox (user, PID,
 * IPC, UTS, cgroup and, unless the spec's network is HOST, network namespaces; an allowlisted
 * read-only filesystem; no capabilities; never real root). Needs Linux, an unprivileged {@code
 * bwrap} and util-linux {@code flock} and {@code setpriv} in {@code /usr/bin} or {@code /bin}.
 *
 * <p>Settings ({@link BackendConfig}, all optional): {@code bwrap.path}, {@code bwrap.uid}, {@code
 * bwrap.gid}, {@code bwrap.tmp-size}, {@code bwrap.shm-size}, {@code bwrap.etc}, {@code
 * bwrap.read-only-paths}, {@code bwrap.hostname}, {@code bwrap.cgroup}, {@code bwrap.work-dir} and
 * {@code bwrap.limit.memory}, {@code .pids}, {@code .cpu-seconds}, {@code .file-size}, {@code
 * .open-files}, {@code .address-space}; see {@code docs/backends/bwrap.md}. An unknown {@code
 * bwrap.*} key is an error.
 */
public final class BwrapBackendProvider implements BackendProvider {

  /** Found by {@link java.util.ServiceLoader}. */
  public BwrapBackendProvider() {}

  @Override
  public String id() {
    return BwrapBackend.ID;
  }

  /** Probes with default settings by starting real probe sandboxes; never throws. */
  @Override
  public Availability probe() {
    try {
      return BwrapBackend.probeDefaults();
    } catch (RuntimeException e) {
      return Availability.unavailable("probing bwrap failed: " + e);
    }
  }

  /**
   * Probes again with {@code config} and creates the backend.
   *
   * @throws dev.capability.kernel.api.BackendUnavailableException {@code BACKEND_UNAVAILABLE} when
   *     a setting is invalid or sandboxes cannot run here as configured
   */
  @Override
  public ExecutionBackend create(BackendConfig config) {
    return BwrapBackend.create(Objects.requireNonNull(config, "config"));
  }
}
