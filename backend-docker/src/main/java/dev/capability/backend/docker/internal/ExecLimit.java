package dev.capability.backend.docker.internal;

import dev.capability.backend.support.ExecArgumentLimit;
import dev.capability.kernel.api.backend.LaunchFailedException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How many bytes of arguments and environment an {@code execve} in this daemon's containers
 * accepts ({@link ExecArgumentLimit}, Linux's rule, from the stack limit the probe read), and the
 * check that refuses a launch over it before anything is created.
 *
 * <p>Three {@code execve}s run before the command: {@code ck-launch} with the whole entrypoint and
 * the variables the daemon adds, tini with the spec's environment, then the command. The check
 * counts the whole entrypoint, the spec's environment and {@link #DAEMON_ENVIRONMENT_BYTES} at
 * once, which bounds each of them. The daemon's API adds no smaller limit: it takes the entrypoint
 * in a JSON body of any size.
 *
 * @param maxBytes the bytes of strings and pointers one {@code execve} accepts
 * @param basis how {@code maxBytes} was found, for messages
 */
record ExecLimit(long maxBytes, String basis) {
  /** A bound on {@code PATH}, {@code HOSTNAME} and {@code HOME}, which the daemon gives the entrypoint. */
  static final long DAEMON_ENVIRONMENT_BYTES = 4096;

  private static final String WHERE = "in this daemon's containers";

  /** The limit for a container whose stack soft limit is {@code stackLimit}, as the probe read it. */
  static ExecLimit forStack(Optional<String> stackLimit) {
    ExecArgumentLimit limit = ExecArgumentLimit.forStack(stackLimit.orElse(null), WHERE);
    return new ExecLimit(limit.maxBytes(), limit.basis());
  }

  /**
   * Refuses an entrypoint and environment that one {@code execve} would not take.
   *
   * @throws LaunchFailedException with code {@link LaunchFailedException#ARGUMENT_LIST_TOO_LONG}
   */
  void check(String executable, List<String> entrypoint, Map<String, String> environment) {
    new ExecArgumentLimit(maxBytes, basis, WHERE)
        .check(executable, entrypoint, environment, DAEMON_ENVIRONMENT_BYTES, "the daemon's variables");
  }
}
