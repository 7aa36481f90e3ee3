package dev.capability.kernel.core.internal.authority;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable set of Unicode scalar values other than NUL, as sorted, disjoint, non-adjacent
 * inclusive ranges. Glob matching and glob comparison both read character classes through it.
 */
final class CodePointSet {
  /** The smallest code point a path can hold: NUL never occurs in a file name. */
  static final int MIN = 1;
  /** The largest code point. */
  static final int MAX = Character.MAX_CODE_POINT;

  /** Every scalar value a path can hold: all code points but NUL and the surrogates. */
  static final CodePointSet UNIVERSE =
      new CodePointSet(new int[] {MIN, Character.MIN_SURROGATE - 1, Character.MAX_SURROGATE + 1, MAX});

  private final int[] ranges;

  private CodePointSet(int[] ranges) {
    this.ranges = ranges;
  }

  static CodePointSet of(int codePoint) {
    return new CodePointSet(new int[] {codePoint, codePoint}).intersect(UNIVERSE);
  }

  /** The union of the inclusive ranges {@code pairs[0]..pairs[1]}, {@code pairs[2]..pairs[3]}, ... */
  static CodePointSet ofRanges(List<int[]> pairs) {
    List<int[]> sorted = new ArrayList<>(pairs);
    sorted.sort((x, y) -> Integer.compare(x[0], y[0]));
    List<Integer> merged = new ArrayList<>();
    for (int[] pair : sorted) {
      int last = merged.size() - 1;
      if (last > 0 && pair[0] <= merged.get(last) + 1) {
        merged.set(last, Math.max(merged.get(last), pair[1]));
      } else {
        merged.add(pair[0]);
        merged.add(pair[1]);
      }
    }
    return new CodePointSet(merged.stream().mapToInt(Integer::intValue).toArray()).intersect(UNIVERSE);
  }

  boolean contains(int codePoint) {
    int low = 0;
    int high = ranges.length / 2 - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (codePoint < ranges[2 * mid]) {
        high = mid - 1;
      } else if (codePoint > ranges[2 * mid + 1]) {
        low = mid + 1;
      } else {
        return true;
      }
    }
    return false;
  }

  boolean isEmpty() {
    return ranges.length == 0;
  }

  /** The scalar values not in this set. */
  CodePointSet complement() {
    List<int[]> gaps = new ArrayList<>();
    int next = MIN;
    for (int i = 0; i < ranges.length; i += 2) {
      if (ranges[i] > next) {
        gaps.add(new int[] {next, ranges[i] - 1});
      }
      next = ranges[i + 1] + 1;
    }
    if (next <= MAX) {
      gaps.add(new int[] {next, MAX});
    }
    return ofRangesUnchecked(gaps).intersect(UNIVERSE);
  }

  CodePointSet minus(int codePoint) {
    return intersect(of(codePoint).complement());
  }

  CodePointSet intersect(CodePointSet other) {
    List<int[]> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < ranges.length && j < other.ranges.length) {
      int low = Math.max(ranges[i], other.ranges[j]);
      int high = Math.min(ranges[i + 1], other.ranges[j + 1]);
      if (low <= high) {
        out.add(new int[] {low, high});
      }
      if (ranges[i + 1] < other.ranges[j + 1]) {
        i += 2;
      } else {
        j += 2;
      }
    }
    return ofRangesUnchecked(out);
  }

  /**
   * Adds the points where membership can change to {@code boundaries}: the start of each range
   * and the point after its end. Between two consecutive boundaries every set agrees on every
   * code point, so one representative stands for the whole interval.
   */
  void addBoundaries(java.util.SortedSet<Integer> boundaries) {
    for (int i = 0; i < ranges.length; i += 2) {
      boundaries.add(ranges[i]);
      boundaries.add(ranges[i + 1] + 1);
    }
  }

  private static CodePointSet ofRangesUnchecked(List<int[]> sortedDisjoint) {
    int[] flat = new int[sortedDisjoint.size() * 2];
    for (int k = 0; k < sortedDisjoint.size(); k++) {
      flat[2 * k] = sortedDisjoint.get(k)[0];
      flat[2 * k + 1] = sortedDisjoint.get(k)[1];
    }
    return new CodePointSet(flat);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CodePointSet that && Arrays.equals(ranges, that.ranges);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(ranges);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < ranges.length; i += 2) {
      out.append(i == 0 ? "" : ",").append(Integer.toHexString(ranges[i])).append('-').append(Integer.toHexString(ranges[i + 1]));
    }
    return out.append(']').toString();
  }
}
