package dev.capability.kernel.api.backend;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Launches one argv under the isolation this backend provides. A backend enforces a
 * {@link LaunchSpec} and reports what it can enforce, nothing more: policy, auditing and
 * attestation are the kernel's job.
 *
 * <p>Every backend keeps the baseline contract: argv without a shell; exactly the environment in
 * the spec; stdin closed unless the spec gives input; the wall-clock timeout ends the command's
 * whole process tree; each output stream is bounded in memory and flagged when truncated.
 */
public interface ExecutionBackend extends AutoCloseable {

  /** The backend's id, for example {@code process}, {@code bwrap} or {@code docker}. */
  String id();

  /** The isolation capabilities verified on this machine. */
  Set<IsolationCapability> capabilities();

  /**
   * The versions of what enforces this backend's isolation, by component: for example {@code
   * daemon}, {@code runc} and {@code kernel} for docker, {@code bwrap} and {@code kernel} for
   * bwrap. Each is the version as the component reports it, such as {@code 20.10.24+dfsg1}. The
   * kernel records them in every attestation, and a policy's {@code backendVersions} sets minimums
   * for them; a component a backend does not name here counts as unknown, and an unknown version
   * never meets a minimum. Empty when the backend names none.
   */
  default Map<String, String> versions() {
    return Map.of();
  }

  /**
   * What the probe found, for {@code capability doctor}: for each missing capability worth
   * explaining, why it is missing, and facts such as versions. Never secrets.
   */
  default Map<String, String> diagnostics() {
    return Map.of();
  }

  /**
   * Why this backend's commands could not create files in {@code directory}, an existing directory
   * on the host given to them as a writable root, or empty when they could or the backend cannot
   * tell without launching (a launch then shows it). Lets a host refuse a write grant the sandbox
   * could not use, with what to change, before launching anything. Never changes permissions.
   */
  default Optional<String> cannotWriteIn(Path directory) {
    return Optional.empty();
  }

  /**
   * Runs the spec to completion, timeout or output limit.
   *
   * @throws LaunchFailedException when the command could not be started at all
   */
  LaunchResult launch(LaunchSpec spec);

  /** Releases what the backend holds; launched commands have all ended by then. */
  @Override
  default void close() {}
}
