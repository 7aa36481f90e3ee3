package dev.capability.kernel.core.internal.authority;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Repository-relative paths as the authority decides them: segments joined by {@code /}, none of
 * them empty, {@code .} or {@code ..}, no leading or trailing {@code /}, no NUL and no broken
 * surrogate. A path that is not in this form is refused, never normalized: normalizing
 * {@code a/../.git/config} would decide a different path than the one a program opens.
 */
public final class RepositoryPaths {
  private RepositoryPaths() {}

  /** What is wrong with {@code path}, or empty when it is a valid repository-relative path. */
  public static Optional<String> problem(String path) {
    if (path.isEmpty()) {
      return Optional.of("is empty");
    }
    if (path.charAt(0) == '/') {
      return Optional.of("is absolute; paths are relative to the repository root");
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == 0) {
        return Optional.of("contains NUL");
      }
      if (Character.isHighSurrogate(c) && i + 1 < path.length() && Character.isLowSurrogate(path.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return Optional.of("contains a broken surrogate");
      }
    }
    for (String segment : segments(path)) {
      if (segment.isEmpty()) {
        return Optional.of("has an empty segment (a doubled or trailing /)");
      }
      if (segment.equals(".") || segment.equals("..")) {
        return Optional.of("has a " + segment + " segment");
      }
    }
    return Optional.empty();
  }

  /** The segments of {@code path} split at every {@code /}, empty ones included. */
  static List<String> segments(String path) {
    List<String> segments = new ArrayList<>();
    int start = 0;
    for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', start)) {
      segments.add(path.substring(start, slash));
      start = slash + 1;
    }
    segments.add(path.substring(start));
    return segments;
  }

  /** Whether {@code ancestor} is a strict ancestor directory of {@code path}. */
  static boolean isStrictAncestor(String ancestor, String path) {
    return path.length() > ancestor.length() && path.startsWith(ancestor) && path.charAt(ancestor.length()) == '/';
  }
}
