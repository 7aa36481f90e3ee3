package dev.capability.backend.support;

import java.util.OptionalInt;

/**
 * How a command ended by {@code SIGXFSZ} shows: a write beyond its {@code RLIMIT_FSIZE} sends it,
 * and a process that does not handle it dies with exit status 128 + 25. A command that exits 153
 * by itself cannot be told apart; it is reported the same way (never a less bounded status).
 */
public final class FileSizeSignal {
  /** {@code SIGXFSZ} on Linux (x86-64 and aarch64 alike). */
  public static final int SIGXFSZ = 25;

  private FileSizeSignal() {}

  /** True when {@code exitCode} is that of a command ended by {@code SIGXFSZ}. */
  public static boolean endedBy(OptionalInt exitCode) {
    return exitCode.isPresent() && exitCode.getAsInt() == 128 + SIGXFSZ;
  }
}
