package dev.capability.backend.bwrap.internal;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bubblewrap release, as {@code bwrap --version} prints it ({@code bubblewrap 0.8.0}).
 *
 * @param major major version
 * @param minor minor version
 * @param patch patch version
 */
record BwrapVersion(int major, int minor, int patch) implements Comparable<BwrapVersion> {
  /** The first release with {@code --disable-userns}. */
  static final BwrapVersion DISABLE_USERNS = new BwrapVersion(0, 8, 0);

  /** The first version with {@code --bind-fd} and {@code --ro-bind-fd}. */
  static final BwrapVersion BIND_FD = new BwrapVersion(0, 8, 0);

  private static final Pattern VERSION = Pattern.compile("^bubblewrap (\\d+)\\.(\\d+)\\.(\\d+)\\b");

  BwrapVersion {
    if (major < 0 || minor < 0 || patch < 0) {
      throw new IllegalArgumentException("version numbers cannot be negative");
    }
  }

  /** The version in {@code bwrap --version} output, if it has the expected form. */
  static Optional<BwrapVersion> parse(String output) {
    Matcher m = VERSION.matcher(output.strip());
    if (!m.find()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new BwrapVersion(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3))));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  boolean atLeast(BwrapVersion other) {
    return compareTo(other) >= 0;
  }

  @Override
  public int compareTo(BwrapVersion other) {
    int c = Integer.compare(major, other.major);
    if (c == 0) {
      c = Integer.compare(minor, other.minor);
    }
    return c != 0 ? c : Integer.compare(patch, other.patch);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
