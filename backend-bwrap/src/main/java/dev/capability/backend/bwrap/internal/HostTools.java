package dev.capability.backend.bwrap.internal;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The verified host programs the launcher chains before the sandbox exists.
 *
 * @param bwrap bubblewrap, unprivileged (not set-uid)
 * @param version its version
 * @param flock util-linux {@code flock}, which opens bwrap's argument file as descriptor 3
 * @param env {@code env}, run inside the sandbox to remove the {@code PWD} bwrap always sets
 * @param setpriv util-linux {@code setpriv}, which drops root and capabilities
 * @param prlimit util-linux {@code prlimit}, which sets the configured rlimits
 * @param mkfifo coreutils {@code mkfifo}, for the argument pipe of runs in a cgroup
 */
record HostTools(
    Path bwrap,
    BwrapVersion version,
    Path flock,
    Path env,
    Optional<Path> setpriv,
    Optional<Path> prlimit,
    Optional<Path> mkfifo) {

  HostTools {
    Objects.requireNonNull(bwrap, "bwrap");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(flock, "flock");
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(setpriv, "setpriv");
    Objects.requireNonNull(prlimit, "prlimit");
    Objects.requireNonNull(mkfifo, "mkfifo");
  }
}
