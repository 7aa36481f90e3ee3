package dev.capability.backend.support;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How many bytes of arguments and environment one {@code execve} accepts, and the check that
 * refuses a launch over it before anything starts. Linux (fs/exec.c) allows the argv and
 * environment strings, each with its NUL byte, plus a pointer to each, up to a quarter of the
 * stack's soft limit, at least 128 KiB and at most 6 MiB; and no single string over 128 KiB
 * ({@code MAX_ARG_STRLEN}). Over either, the {@code execve} fails with {@code E2BIG} inside the
 * backend's launcher and the command ends as an untyped failure, so a backend refuses first, with
 * {@link LaunchFailedException#ARGUMENT_LIST_TOO_LONG}, naming the size and the limit.
 *
 * @param maxBytes the bytes of strings and pointers one {@code execve} accepts
 * @param basis how {@code maxBytes} was found, for messages
 * @param where where that {@code execve} runs, for messages ("in the sandbox")
 */
public record ExecArgumentLimit(long maxBytes, String basis, String where) {
  /** The most one argument or {@code NAME=VALUE} may take, its NUL included (MAX_ARG_STRLEN). */
  public static final long MAX_STRING_BYTES = 32 * 4096;

  /** The least Linux accepts whatever the stack limit (ARG_MAX). */
  public static final long MIN_BYTES = 32 * 4096;

  /** The most Linux accepts whatever the stack limit: three quarters of 8 MiB. */
  public static final long MAX_BYTES = (8L << 20) / 4 * 3;

  private static final int POINTER_BYTES = 8;
  private static final String STACK_LINE = "Max stack size ";

  public ExecArgumentLimit {
    Objects.requireNonNull(basis, "basis");
    Objects.requireNonNull(where, "where");
  }

  /**
   * The limit where the stack's soft limit is {@code stackLimit}, as {@code /proc/<pid>/limits}
   * writes it ({@code unlimited} or a number of bytes); null when it is not known.
   */
  public static ExecArgumentLimit forStack(@Nullable String stackLimit, String where) {
    if (stackLimit == null) {
      return new ExecArgumentLimit(
          MIN_BYTES, "the least Linux allows, since the stack limit is not known", where);
    }
    String soft = stackLimit;
    if (soft.equals("unlimited")) {
      return new ExecArgumentLimit(
          MAX_BYTES, "the most Linux allows, the stack limit being unlimited", where);
    }
    if (!soft.matches("[0-9]{1,18}")) {
      return new ExecArgumentLimit(
          MIN_BYTES, "the least Linux allows, since the stack limit read " + soft, where);
    }
    long bytes = Math.max(MIN_BYTES, Math.min(MAX_BYTES, Long.parseLong(soft) / 4));
    return new ExecArgumentLimit(
        bytes,
        "a quarter of the stack limit of " + soft + " bytes, within 128 KiB to 6 MiB",
        where);
  }

  /**
   * The limit for processes that inherit this JVM's stack limit, read from {@code
   * /proc/self/limits}.
   */
  public static ExecArgumentLimit inheritedFromThisProcess(String where) {
    return forStack(softLimit(Path.of("/proc/self/limits")).orElse(null), where);
  }

  /** The soft stack limit in a {@code limits} file of {@code /proc}; empty when unreadable. */
  static Optional<String> softLimit(Path limits) {
    try {
      return Files.readAllLines(limits, StandardCharsets.US_ASCII).stream()
          .filter(line -> line.startsWith(STACK_LINE))
          .map(line -> line.substring(STACK_LINE.length()).strip().split("\\s+")[0])
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Refuses arguments and an environment that one {@code execve} would not take.
   *
   * @param executable the command, for messages
   * @param arguments every argument of the {@code execve}, argv[0] included
   * @param environment the environment it gets
   * @param reserved bytes of further strings the launcher adds, counted against the limit; 0 for
   *     none
   * @param reservedWhat what those are, for messages
   * @throws LaunchFailedException with code {@link LaunchFailedException#ARGUMENT_LIST_TOO_LONG}
   */
  public void check(
      String executable,
      List<String> arguments,
      Map<String, String> environment,
      long reserved,
      String reservedWhat) {
    long total = reserved;
    for (String argument : arguments) {
      long bytes = bytes(argument);
      if (bytes > MAX_STRING_BYTES) {
        throw tooLong(
            "an argument of " + executable + " takes " + bytes + " bytes, over the "
                + MAX_STRING_BYTES + " Linux allows one argument");
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
              + " bytes (each string with its NUL byte and a pointer"
              + (reserved > 0 ? ", " + reserved + " for " + reservedWhat + " included" : "")
              + "), over the " + maxBytes + " an execve " + where
              + " accepts (" + basis + ")");
    }
  }

  /** The bytes {@code text} takes in an {@code execve}'s strings: UTF-8 and its NUL byte. */
  public static long bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length + 1L;
  }

  private static LaunchFailedException tooLong(String why) {
    return LaunchFailedException.withCode(
        LaunchFailedException.ARGUMENT_LIST_TOO_LONG,
        why + "; refused before anything was started");
  }
}
