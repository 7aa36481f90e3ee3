package dev.capability.backend.kubernetes.internal;

import dev.capability.backend.support.ExecArgumentLimit;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a command reaches its pod without its environment or arguments in the exec request. Every
 * element of an exec's argv is a {@code command=} query parameter of the request's URL, which the
 * API server's request and audit logs record, and so may any proxy on the way. So the exec's argv
 * is fixed text ({@link #command}: the timeout's durations and a constant script), and the
 * spec's strings travel first on the exec's stdin, in this frame, which the image's {@code sh}
 * reads with its {@code read} builtin ({@link #SCRIPT}):
 *
 * <pre>
 * ck-launch 1\n                   the frame's version
 * INPUT\n                         bytes of the command's stdin that follow the frame
 * COUNT\n                         how many items follow
 * LINES\n LINE\n ... (LINES times) each item: its lines, the item being them joined by \n
 * </pre>
 *
 * <p>The items are the spec's environment ({@code NAME=VALUE}, sorted), the shipped executable's
 * path and the spec's arguments, in that order; the script hands them to {@code env -i --}, which
 * clears the environment, sets the variables and executes the command. Everything is UTF-8; a line
 * count makes any character but NUL safe, so no escaping is needed and a value is sent as it is.
 * {@code read} takes stdin one byte at a time from a pipe, so the bytes after the frame are the
 * command's stdin, exactly {@code INPUT} of them: {@code head -c INPUT} passes them on and then
 * ends, so the command sees end-of-file (the exec protocol fabric8 speaks, {@code
 * v4.channel.k8s.io}, cannot close stdin); with no input the command's stdin is {@code /dev/null}.
 * A frame the script cannot read ends it with status 125 and a message on stderr, before anything
 * runs.
 */
final class LaunchFrame {
  /** The frame's first line. */
  static final String VERSION = "ck-launch 1";

  /** The command's name for the script, its {@code $0}. */
  static final String SCRIPT_NAME = "ck-launch";

  /** {@code env}'s status when it cannot run; the script uses it for a frame it cannot read. */
  static final int FRAME_UNREADABLE_STATUS = 125;

  /**
   * The script the image's {@code sh} runs (dash, bash or busybox ash). It is a constant: no
   * string of a spec is ever part of it, and it reads the frame with {@code read -r} and an empty
   * {@code IFS}, which keep every byte of a line. A number has at most 18 digits, so that every
   * shell's arithmetic (64 bits) holds it; a frame without items runs nothing.
   */
  static final String SCRIPT =
      """
      fail() { echo "capability: the launch frame on stdin is malformed ($1)" >&2; exit 125; }
      number() { case $1 in ''|*[!0-9]*|???????????????????*) fail "$2";; esac; }
      nl='
      '
      IFS= read -r version || fail version
      [ "$version" = 'ck-launch 1' ] || fail version
      IFS= read -r input || fail 'input length'
      number "$input" 'input length'
      IFS= read -r count || fail 'item count'
      number "$count" 'item count'
      set --
      while [ "$count" -gt 0 ]; do
        IFS= read -r lines || fail 'line count'
        number "$lines" 'line count'
        [ "$lines" -gt 0 ] || fail 'line count'
        IFS= read -r item || fail item
        while [ "$lines" -gt 1 ]; do
          IFS= read -r line || fail item
          item=$item$nl$line
          lines=$((lines - 1))
        done
        set -- "$@" "$item"
        count=$((count - 1))
      done
      [ "$#" -gt 0 ] || fail 'item count'
      if [ "$input" -eq 0 ]; then exec env -i -- "$@" </dev/null; fi
      head -c "$input" | env -i -- "$@"
      """;

  /**
   * What one {@code execve} in the pod takes: a quarter of the 8 MiB stack limit that containerd,
   * CRI-O and Docker give containers unless the node sets another. The pod's own limit cannot be
   * read from here.
   */
  static final ExecArgumentLimit POD_EXEC_LIMIT =
      new ExecArgumentLimit(
          (8L << 20) / 4,
          "a quarter of the 8 MiB stack limit container runtimes give by default",
          "in the pod");

  /** Bytes the container's own environment may take in {@code env}'s execve, which sh passes on. */
  private static final long CONTAINER_ENVIRONMENT_BYTES = 8 * 1024;

  private LaunchFrame() {}

  /**
   * The exec's argv: {@code timeout -s TERM -k GRACE TIMEOUT sh -c SCRIPT ck-launch}. Nothing of
   * the spec but its timeout and grace.
   */
  static List<String> command(LaunchSpec spec) {
    return List.of(
        "timeout",
        "-s",
        "TERM",
        "-k",
        seconds(spec.terminationGrace()),
        seconds(spec.timeout()),
        "sh",
        "-c",
        SCRIPT,
        SCRIPT_NAME);
  }

  /** A duration as {@code timeout} reads it: seconds with three decimals, at least 0.001 (0 disables it). */
  static String seconds(Duration duration) {
    long millis = Math.max(1, duration.toMillis());
    return String.format(Locale.ROOT, "%d.%03d", millis / 1000, millis % 1000);
  }

  /**
   * The frame of {@code spec}, run as {@code executablePath}.
   *
   * @throws LaunchFailedException {@code LAUNCH_FAILED} when a string holds NUL or is not valid
   *     UTF-16 (the frame cannot carry it; a value is never quoted), {@code ARGUMENT_LIST_TOO_LONG}
   *     when the strings are more than an execve in the pod takes
   */
  static byte[] encode(LaunchSpec spec, String executablePath) {
    String launchName = spec.executable().path().toString();
    List<String> items = new ArrayList<>();
    List<String> names = new ArrayList<>();
    new TreeMap<>(spec.environment())
        .forEach(
            (name, value) -> {
              items.add(name + "=" + value);
              names.add("environment variable " + name);
            });
    items.add(executablePath);
    names.add("the executable's path");
    for (int i = 0; i < spec.arguments().size(); i++) {
      items.add(spec.arguments().get(i));
      names.add("argument " + (i + 1));
    }
    List<String> envArgv = new ArrayList<>(List.of("env", "-i", "--"));
    envArgv.addAll(items);
    POD_EXEC_LIMIT.check(launchName, envArgv, Map.of(), CONTAINER_ENVIRONMENT_BYTES, "the container's own environment");
    long input = spec.stdin().map(bytes -> (long) bytes.length).orElse(0L);
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    line(frame, VERSION);
    line(frame, Long.toString(input));
    line(frame, Integer.toString(items.size()));
    CharsetEncoder utf8 =
        StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    for (int i = 0; i < items.size(); i++) {
      String item = items.get(i);
      if (item.indexOf('\0') >= 0) {
        throw new LaunchFailedException(
            "cannot launch " + launchName + " in a pod: " + names.get(i) + " contains a NUL character, which the launch frame cannot carry");
      }
      String[] lines = item.split("\n", -1);
      line(frame, Integer.toString(lines.length));
      for (String text : lines) {
        try {
          ByteBuffer bytes = utf8.encode(CharBuffer.wrap(text));
          frame.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        } catch (CharacterCodingException e) {
          throw new LaunchFailedException(
              "cannot launch " + launchName + " in a pod: " + names.get(i) + " is not valid UTF-16 (a lone surrogate), which the launch frame cannot carry",
              e);
        }
        frame.write('\n');
      }
    }
    return frame.toByteArray();
  }

  private static void line(ByteArrayOutputStream frame, String text) {
    frame.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    frame.write('\n');
  }
}
