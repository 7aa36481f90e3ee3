package dev.capability.kernel.core.internal.authority;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A compiled glob over repository-relative paths, compiled once and matched many times.
 *
 * <p>Syntax: segments separated by {@code /}; {@code *} matches any run of characters within one
 * segment, {@code ?} exactly one character, {@code [abc]}, {@code [a-z]}, {@code [!a-z]} (or
 * {@code [^a-z]}) one character in or not in the class; {@code **} as a whole segment matches zero
 * or more whole segments, so {@code target/**} matches {@code target} itself and everything in it.
 * Nothing ever matches {@code /} except {@code /}. Matching is by Unicode code point and case
 * sensitive. Escapes, braces, extended globs, negation and POSIX classes are refused.
 *
 * <p>Hidden names: in a {@link #writeScope write scope}, as in minimatch without {@code dot}, no
 * wildcard ({@code *}, {@code ?}, a class, {@code **}) matches the {@code .} that starts a segment;
 * a hidden file or directory is matched only by a pattern that spells the dot, such as
 * {@code .github/**} or {@code src/.*}. A {@link #protectedPath protected path} pattern matches
 * hidden names with every wildcard, because it must protect more, not less.
 */
public final class GlobPattern {
  private final String source;
  private final GlobSegment[] segments;
  private final boolean wildcardsMatchDot;
  private final long globstars;

  private GlobPattern(String source, List<GlobSegment> segments, boolean wildcardsMatchDot) {
    this.source = source;
    this.segments = segments.toArray(GlobSegment[]::new);
    this.wildcardsMatchDot = wildcardsMatchDot;
    long mask = 0;
    for (int p = 0; p < this.segments.length; p++) {
      if (this.segments[p].isGlobstar()) {
        mask |= 1L << p;
      }
    }
    this.globstars = mask;
  }

  /**
   * A write-scope pattern, whose wildcards skip hidden names.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException {@code SCOPE_PATTERN_INVALID}
   */
  public static GlobPattern writeScope(String pattern) {
    Objects.requireNonNull(pattern, "pattern");
    return new GlobPattern(pattern, GlobParser.parse(pattern, "write scope"), false);
  }

  /**
   * A protected-path pattern, whose wildcards match hidden names too.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException {@code SCOPE_PATTERN_INVALID}
   */
  public static GlobPattern protectedPath(String pattern) {
    Objects.requireNonNull(pattern, "pattern");
    return new GlobPattern(pattern, GlobParser.parse(pattern, "protected path"), true);
  }

  /** The pattern as written. */
  public String source() {
    return source;
  }

  /**
   * Whether {@code path} matches. A string that is not a valid repository-relative path (empty,
   * absolute, with an empty, {@code .} or {@code ..} segment) matches nothing.
   */
  public boolean matches(String path) {
    return scan(path, false) == path.length();
  }

  /**
   * The length of the shortest prefix of {@code path} that the pattern matches, where a prefix is
   * the path itself or a directory above it; -1 when none matches. One pass over the segments,
   * so asking whether a path lies at or under a match costs no more than {@link #matches}.
   */
  public int shortestMatchingPrefix(String path) {
    return scan(path, true);
  }

  /** The end of the first (when {@code prefixes}) or the only candidate that matches, or -1. */
  private int scan(String path, boolean prefixes) {
    int length = path.length();
    if (length == 0 || path.charAt(0) == '/') {
      return -1;
    }
    int m = segments.length;
    long accept = 1L << m;
    long states = closure(1L);
    int start = 0;
    while (true) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? length : slash;
      if (end == start || isDotSegment(path, start, end)) {
        return -1;
      }
      long next = 0;
      for (long rest = states & ~accept; rest != 0; rest &= rest - 1) {
        int p = Long.numberOfTrailingZeros(rest);
        GlobSegment segment = segments[p];
        if (segment.isGlobstar()) {
          if (wildcardsMatchDot || path.charAt(start) != '.') {
            next |= 1L << p;
          }
        } else if (segment.matches(path, start, end, wildcardsMatchDot)) {
          next |= 1L << (p + 1);
        }
      }
      states = closure(next);
      if ((states & accept) != 0 && (prefixes || slash < 0)) {
        return end;
      }
      if (states == 0 || slash < 0) {
        return -1;
      }
      start = slash + 1;
    }
  }

  /**
   * The leading segments that have no wildcard: every path the pattern matches lies at or under
   * them. Empty when the pattern starts with a wildcard.
   */
  public List<String> literalPrefix() {
    List<String> prefix = new ArrayList<>();
    for (GlobSegment segment : segments) {
      if (segment.isGlobstar() || segment.literal().isEmpty()) {
        break;
      }
      prefix.add(segment.literal().get());
    }
    return prefix;
  }

  List<GlobSegment> segments() {
    return List.of(segments);
  }

  boolean wildcardsMatchDot() {
    return wildcardsMatchDot;
  }

  /** Adds, for every {@code **} position in {@code states}, the position after it: {@code **} may match nothing. */
  private long closure(long states) {
    long closed = states;
    for (long rest = globstars; rest != 0; rest &= rest - 1) {
      int p = Long.numberOfTrailingZeros(rest);
      if ((closed & (1L << p)) != 0) {
        closed |= 1L << (p + 1);
      }
    }
    return closed;
  }

  private static boolean isDotSegment(String path, int start, int end) {
    return path.charAt(start) == '.' && (end - start == 1 || end - start == 2 && path.charAt(start + 1) == '.');
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof GlobPattern that && source.equals(that.source) && wildcardsMatchDot == that.wildcardsMatchDot;
  }

  @Override
  public int hashCode() {
    return source.hashCode() * 31 + Boolean.hashCode(wildcardsMatchDot);
  }

  @Override
  public String toString() {
    return source;
  }
}
