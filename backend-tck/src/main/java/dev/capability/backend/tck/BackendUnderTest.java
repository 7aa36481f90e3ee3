package dev.capability.backend.tck;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the contract tests need from the backend under test. Only {@link #backend()} must be
 * implemented; the other hooks have defaults that suit a backend whose commands run as processes of
 * this machine.
 */
public interface BackendUnderTest {

  /**
   * The backend under test. Called once or more per test; return one instance for the whole test
   * class (for example from a static field) and close it after all tests, since the suite does not
   * close it.
   */
  ExecutionBackend backend();

  /**
   * Pins an executable for a launch, as the kernel would. The default hashes the file and uses its
   * real path as the exec path; override it to exercise the kernel's descriptor pinning.
   *
   * @param executable an existing executable file on this machine
   */
  default PinnedExecutable pin(Path executable) {
    try {
      Path real = executable.toRealPath();
      return new PinnedExecutable(
          real,
          Sha256.hex(Files.readAllBytes(real)),
          real.toString(),
          PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot pin " + executable, e);
    }
  }

  /**
   * Adjusts the defaults every spec of the suite starts from, before a test sets what it is about.
   * The suite's defaults: the test's repository as working directory and repository, no writable
   * roots, {@code PATH=/usr/bin:/bin} plus a marker variable, network {@code NONE}, a generous
   * timeout and a short termination grace. A backend that cannot run anything without, say, {@code
   * network(HOST)} sets it here; tests about the network still set their own.
   */
  default LaunchSpec.Builder withDefaults(LaunchSpec.Builder spec) {
    return spec;
  }

  /**
   * The workspace the kernel would ship for {@code spec}, for a backend that advertises {@link
   * IsolationCapability#REMOTE_WORKSPACE}: the suite attaches it to every spec with a repository
   * before launching it, and fails a spec with a repository but without one. Empty by default,
   * which suits a backend that binds the repository; a remote backend's test returns the kernel's
   * implementation for the spec's repository, writable roots and protected paths.
   */
  default Optional<ShippedWorkspace> shippedWorkspace(LaunchSpec spec) {
    return Optional.empty();
  }

  /**
   * Live processes (not zombies) started by a launch whose environment or arguments contain {@code
   * marker}, described for a failure message; empty when none is left. The default scans this
   * machine's {@code /proc}; a backend whose commands run elsewhere (a container daemon, a remote
   * host) looks there its own way.
   */
  default List<String> liveProcessesMarkedWith(String marker) {
    return HostProcesses.markedWith(marker).stream().map(HostProcesses.Found::toString).toList();
  }

  /**
   * Ends every live process that {@link #liveProcessesMarkedWith} would report and waits until they
   * are gone. The suite calls it to clean up after an escape the backend does not claim to contain.
   */
  default void endProcessesMarkedWith(String marker) {
    HostProcesses.killMarkedWith(marker);
  }
}
