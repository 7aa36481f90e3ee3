package dev.capability.kernel.core.internal.authority;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One segment of a compiled glob: {@code **}, or a sequence of units that each match one code
 * point (a literal, {@code ?}, a class) or any run of code points ({@code *}). Matching never
 * sees a {@code /}: paths are split into segments first.
 */
final class GlobSegment {
  /** The unit of {@code ?}: any one code point. */
  static final int ANY = -1;
  /** The unit of {@code *}: any run of code points, the empty one included. */
  static final int STAR = -2;
  /** Units below this are classes: {@code CLASS_BASE - k} is {@code classes[k]}. */
  private static final int CLASS_BASE = -3;

  static final GlobSegment GLOBSTAR = new GlobSegment(true, new int[0], List.of());

  private final boolean globstar;
  private final int[] units;
  private final CodePointSet[] classes;
  private final String literal;

  private GlobSegment(boolean globstar, int[] units, List<CodePointSet> classes) {
    this.globstar = globstar;
    this.units = units;
    this.classes = classes.toArray(CodePointSet[]::new);
    this.literal = !globstar && Arrays.stream(units).allMatch(unit -> unit >= 0)
        ? new String(units, 0, units.length)
        : null;
  }

  /**
   * A segment of {@code units}: code points as themselves, {@link #ANY}, {@link #STAR}, or
   * {@link #classUnit(int)} for {@code classes.get(k)}.
   */
  static GlobSegment of(int[] units, List<CodePointSet> classes) {
    if (units.length == 0) {
      throw new IllegalArgumentException("a glob segment has at least one unit");
    }
    return new GlobSegment(false, units.clone(), classes);
  }

  /** The unit that stands for class {@code k}. */
  static int classUnit(int k) {
    return CLASS_BASE - k;
  }

  boolean isGlobstar() {
    return globstar;
  }

  /** The segment's text when it has no wildcard. */
  Optional<String> literal() {
    return Optional.ofNullable(literal);
  }

  int length() {
    return units.length;
  }

  int unit(int index) {
    return units[index];
  }

  /** The code points unit {@code index} matches, or null for {@link #STAR}. */
  CodePointSet unitSet(int index) {
    int unit = units[index];
    if (unit >= 0) {
      return CodePointSet.of(unit);
    }
    if (unit == ANY) {
      return CodePointSet.UNIVERSE;
    }
    if (unit == STAR) {
      return null;
    }
    return classes[CLASS_BASE - unit];
  }

  /** Whether the first unit is a literal {@code .}, the only way a hidden name is matched when wildcards skip them. */
  boolean startsWithLiteralDot() {
    return units.length > 0 && units[0] == '.';
  }

  /**
   * Whether this (non-{@code **}) segment matches {@code path[from, to)}, a non-empty segment.
   *
   * @param wildcardsMatchDot whether a wildcard may match the {@code .} that starts a hidden name
   */
  boolean matches(String path, int from, int to, boolean wildcardsMatchDot) {
    if (literal != null) {
      return to - from == literal.length() && path.startsWith(literal, from);
    }
    if (!wildcardsMatchDot && path.charAt(from) == '.' && !startsWithLiteralDot()) {
      return false;
    }
    // Two pointers with backtracking to the last *: every other unit matches exactly one code
    // point, so retrying only from the last * is complete.
    int p = 0;
    int i = from;
    int starP = -1;
    int starI = -1;
    while (i < to) {
      int codePoint = path.codePointAt(i);
      if (p < units.length && units[p] == STAR) {
        starP = p++;
        starI = i;
      } else if (p < units.length && unitMatches(units[p], codePoint)) {
        p++;
        i += Character.charCount(codePoint);
      } else if (starP >= 0) {
        p = starP + 1;
        starI += Character.charCount(path.codePointAt(starI));
        i = starI;
      } else {
        return false;
      }
    }
    while (p < units.length && units[p] == STAR) {
      p++;
    }
    return p == units.length;
  }

  private boolean unitMatches(int unit, int codePoint) {
    if (unit >= 0) {
      return unit == codePoint;
    }
    if (unit == ANY) {
      return true;
    }
    return classes[CLASS_BASE - unit].contains(codePoint);
  }
}
