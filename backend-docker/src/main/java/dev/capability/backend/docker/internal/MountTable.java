package dev.capability.backend.docker.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The mount points this JVM sees, from {@code /proc/self/mountinfo}. Daemons before API 1.44 make a
 * read-only bind read-only only at its top: a file system mounted below the source stays writable
 * in the container. So a bind source with a mount point below it is refused.
 */
final class MountTable {
  static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

  private final List<Path> mountPoints;

  MountTable(List<Path> mountPoints) {
    this.mountPoints = List.copyOf(mountPoints);
  }

  /** Reads this JVM's mount table now. */
  static MountTable current() {
    try {
      return parse(Files.readAllLines(MOUNTINFO));
    } catch (IOException e) {
      throw new LaunchFailedException("cannot read " + MOUNTINFO + ": " + e, e);
    }
  }

  /** Parses mountinfo lines; the fifth field is the mount point, with octal escapes. */
  static MountTable parse(List<String> lines) {
    List<Path> points = new ArrayList<>();
    for (String line : lines) {
      String[] fields = line.split(" ");
      if (fields.length < 5) {
        throw new LaunchFailedException("malformed line in " + MOUNTINFO + ": " + line);
      }
      points.add(Path.of(unescape(fields[4])));
    }
    return new MountTable(points);
  }

  /** Mount points strictly below {@code source}. */
  List<Path> below(Path source) {
    return mountPoints.stream().filter(p -> p.startsWith(source) && !p.equals(source)).toList();
  }

  /** Refuses {@code source} when a file system is mounted below it. */
  void requireNoSubmounts(Path source, String what) {
    List<Path> below = below(source);
    if (!below.isEmpty()) {
      throw new LaunchFailedException(
          what
              + " "
              + source
              + " has file systems mounted below it ("
              + below
              + "); the daemon cannot make a bind read-only recursively, so such a source is "
              + "refused");
    }
  }

  private static String unescape(String field) {
    StringBuilder out = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && isOctal(field, i + 1)) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean isOctal(String s, int from) {
    if (from + 3 > s.length()) {
      return false;
    }
    for (int i = from; i < from + 3; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '7') {
        return false;
      }
    }
    return true;
  }
}
