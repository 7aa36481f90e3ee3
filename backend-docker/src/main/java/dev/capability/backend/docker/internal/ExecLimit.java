package dev.capability.backend.docker.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How many bytes of arguments and environment an {@code execve} in this daemon's containers
 * accepts, and the check that refuses a launch over it before anything is created. Linux (fs/exec.c)
 * allows the argv and environment strings, each with its NUL byte, plus a pointer to each, up to a
 * quarter of the stack's soft limit, at least 128 KiB and at most 6 MiB; and no single string over
 * 128 KiB. Over either, the entrypoint's own {@code execve} fails and the command ends as an
 * untyped exit, so the backend refuses first, with a code, naming the size and the limit.
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
  /** The most one argument or {@code NAME=VALUE} may take, its NUL included (MAX_ARG_STRLEN). */
  static final long MAX_STRING_BYTES = 32 * 4096;

  /** The least Linux accepts whatever the stack limit (ARG_MAX). */
  static final long MIN_BYTES = 32 * 4096;

  /** The most Linux accepts whatever the stack limit: three quarters of 8 MiB. */
  static final long MAX_BYTES = (8L << 20) / 4 * 3;

  /** A bound on {@code PATH}, {@code HOSTNAME} and {@code HOME}, which the daemon gives the entrypoint. */
  static final long DAEMON_ENVIRONMENT_BYTES = 4096;

  private static final int POINTER_BYTES = 8;

  /** The limit for a container whose stack soft limit is {@code stackLimit}, as the probe read it. */
  static ExecLimit forStack(Optional<String> stackLimit) {
    if (stackLimit.isEmpty()) {
      return new ExecLimit(MIN_BYTES, "the least Linux allows, since the probe did not show the stack limit");
    }
    String soft = stackLimit.get();
    if (soft.equals("unlimited")) {
      return new ExecLimit(MAX_BYTES, "the most Linux allows, the stack limit being unlimited");
    }
    if (!soft.matches("[0-9]{1,18}")) {
      return new ExecLimit(MIN_BYTES, "the least Linux allows, since the stack limit read " + soft);
    }
    long bytes = Math.max(MIN_BYTES, Math.min(MAX_BYTES, Long.parseLong(soft) / 4));
    return new ExecLimit(bytes, "a quarter of the containers' stack limit of " + soft + " bytes, within 128 KiB to 6 MiB");
  }

  /**
   * Refuses an entrypoint and environment that one {@code execve} would not take.
   *
   * @throws LaunchFailedException with code {@link LaunchFailedException#ARGUMENT_LIST_TOO_LONG}
   */
  void check(String executable, List<String> entrypoint, Map<String, String> environment) {
    long total = DAEMON_ENVIRONMENT_BYTES;
    for (int i = 0; i < entrypoint.size(); i++) {
      long bytes = bytes(entrypoint.get(i));
      if (bytes > MAX_STRING_BYTES) {
        throw tooLong(
            "an argument of " + executable + " takes " + bytes + " bytes, over the " + MAX_STRING_BYTES
                + " Linux allows one argument");
      }
      total += bytes + POINTER_BYTES;
    }
    for (Map.Entry<String, String> variable : environment.entrySet()) {
      long bytes = bytes(variable.getKey() + "=" + variable.getValue());
      if (bytes > MAX_STRING_BYTES) {
        throw tooLong(
            "environment variable " + variable.getKey() + " takes " + bytes + " bytes, over the "
                + MAX_STRING_BYTES + " Linux allows one variable");
      }
      total += bytes + POINTER_BYTES;
    }
    if (total > maxBytes) {
      throw tooLong(
          "the arguments and environment of " + executable + " take " + total
              + " bytes (each string with its NUL byte and a pointer, the entrypoint's own arguments"
              + " and " + DAEMON_ENVIRONMENT_BYTES + " for the daemon's variables included), over the "
              + maxBytes + " an execve in this daemon's containers accepts (" + basis + ")");
    }
  }

  private static long bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length + 1L;
  }

  private static LaunchFailedException tooLong(String why) {
    return LaunchFailedException.withCode(
        LaunchFailedException.ARGUMENT_LIST_TOO_LONG, why + "; refused before anything was started");
  }
}
