package dev.capability.backend.support;

import java.util.Objects;

/**
 * The fields of one {@code /proc/<pid>/stat} line that ending a command's process tree needs.
 *
 * @param pid the process id in this JVM's pid namespace (field 1)
 * @param comm the command name (field 2, without the parentheses); may contain spaces and
 *     parentheses, which is why parsing anchors on the last {@code ')'}
 * @param state the one-letter state (field 3), for example {@code R}, {@code S} or {@code Z}
 * @param ppid the parent's pid (field 4)
 * @param pgrp the process group id (field 5)
 * @param session the session id (field 6)
 * @param startTicks the start time in clock ticks after boot (field 22); together with the pid it
 *     identifies a process across pid reuse
 */
public record ProcStat(
    long pid, String comm, char state, long ppid, long pgrp, long session, long startTicks) {

  private static final int STATE = 0;
  private static final int PPID = 1;
  private static final int PGRP = 2;
  private static final int SESSION = 3;
  private static final int START_TIME = 19;

  public ProcStat {
    Objects.requireNonNull(comm, "comm");
    if (pid <= 0) {
      throw new IllegalArgumentException("pid must be positive, was " + pid);
    }
  }

  /**
   * Parses one stat line. The text must hold the raw bytes of the file decoded one byte per char
   * (ISO-8859-1), since {@code comm} is arbitrary bytes.
   *
   * @throws IllegalArgumentException when the line is not a stat line
   */
  public static ProcStat parse(String line) {
    Objects.requireNonNull(line, "line");
    int open = line.indexOf('(');
    int close = line.lastIndexOf(')');
    if (open <= 0 || close < open) {
      throw malformed(line, "no '(comm)' field");
    }
    // Only five fields after the name are needed; scanning for them costs a fraction of
    // splitting all fifty, and ending a process tree parses every process's line.
    long[] numbers = new long[START_TIME + 1];
    char state = 0;
    int field = -1;
    int i = close + 1;
    int length = line.length();
    while (field < START_TIME) {
      while (i < length && line.charAt(i) == ' ') {
        i++;
      }
      if (i >= length || line.charAt(i) == '\n') {
        throw malformed(line, "too few fields after comm");
      }
      int start = i;
      while (i < length && line.charAt(i) != ' ' && line.charAt(i) != '\n') {
        i++;
      }
      field++;
      if (field == STATE) {
        if (i - start != 1) {
          throw malformed(line, "too few fields after comm");
        }
        state = line.charAt(start);
      } else if (field == PPID
          || field == PGRP
          || field == SESSION
          || field == START_TIME) {
        numbers[field] = number(line, start, i);
      }
    }
    try {
      return new ProcStat(
          Long.parseLong(line.substring(0, open).trim()),
          line.substring(open + 1, close),
          state,
          numbers[PPID],
          numbers[PGRP],
          numbers[SESSION],
          numbers[START_TIME]);
    } catch (NumberFormatException e) {
      throw malformed(line, "a numeric field is not a number");
    }
  }

  private static long number(String line, int start, int end) {
    try {
      return Long.parseLong(line, start, end, 10);
    } catch (NumberFormatException e) {
      throw malformed(line, "a numeric field is not a number");
    }
  }

  /** True when the process has exited and only its table entry is left (zombie or dead). */
  public boolean exited() {
    return state == 'Z' || state == 'X' || state == 'x';
  }

  /** True when {@code other} is the same process: same pid and same start time. */
  public boolean sameProcessAs(ProcStat other) {
    return pid == other.pid && startTicks == other.startTicks;
  }

  private static IllegalArgumentException malformed(String line, String why) {
    String shown = line.length() > 120 ? line.substring(0, 120) + "..." : line;
    return new IllegalArgumentException(
        "malformed /proc stat line (" + why + "): " + shown.strip());
  }
}
