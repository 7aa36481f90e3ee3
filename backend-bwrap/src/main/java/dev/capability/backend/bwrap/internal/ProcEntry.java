package dev.capability.backend.bwrap.internal;

import java.util.Objects;

/**
 * The fields of one {@code /proc/<pid>/stat} line that ending a sandbox needs.
 *
 * @param pid the process id in this JVM's pid namespace
 * @param state the one-letter state, for example {@code S} or {@code Z}
 * @param ppid the parent's pid
 * @param startTicks start time in clock ticks after boot; with the pid it names one process across
 *     pid reuse
 */
record ProcEntry(long pid, char state, long ppid, long startTicks) {
  // Field positions counted after the closing parenthesis of comm.
  private static final int STATE = 0;
  private static final int PPID = 1;
  private static final int START_TIME = 19;

  ProcEntry {
    if (pid <= 0) {
      throw new IllegalArgumentException("pid must be positive, was " + pid);
    }
  }

  /**
   * Parses a stat line decoded one byte per char. {@code comm} may hold spaces and parentheses, so
   * the fields are counted from the last {@code ')'}.
   *
   * @throws IllegalArgumentException when the line is not a stat line
   */
  static ProcEntry parse(String line) {
    Objects.requireNonNull(line, "line");
    int open = line.indexOf('(');
    int close = line.lastIndexOf(')');
    if (open <= 0 || close < open) {
      throw new IllegalArgumentException("not a /proc stat line: no (comm) field");
    }
    String[] fields = line.substring(close + 1).trim().split(" +");
    if (fields.length <= START_TIME || fields[STATE].length() != 1) {
      throw new IllegalArgumentException("not a /proc stat line: too few fields after comm");
    }
    try {
      return new ProcEntry(
          Long.parseLong(line.substring(0, open).trim()),
          fields[STATE].charAt(0),
          Long.parseLong(fields[PPID]),
          Long.parseLong(fields[START_TIME]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a /proc stat line: a numeric field is not a number");
    }
  }

  /** True once only the table entry is left (zombie or dead). */
  boolean exited() {
    return state == 'Z' || state == 'X' || state == 'x';
  }

  boolean sameProcessAs(ProcEntry other) {
    return pid == other.pid && startTicks == other.startTicks;
  }
}
