package dev.capability.kernel.core.internal.authority;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SortedSet;

/**
 * A glob as a nondeterministic automaton over code points, {@code /} included, built from the
 * same compiled segments that {@link GlobPattern#matches} reads. It exists to compare globs
 * ({@link GlobContainment}); a property test checks that it accepts exactly what the matcher does.
 */
final class GlobAutomaton {
  private static final CodePointSet SLASH = CodePointSet.of('/');
  private static final CodePointSet NOT_SLASH = CodePointSet.UNIVERSE.minus('/');
  private static final CodePointSet NOT_SLASH_OR_DOT = NOT_SLASH.minus('.');

  private record Edge(CodePointSet on, int to) {}

  private final List<List<Integer>> epsilon = new ArrayList<>();
  private final List<List<Edge>> edges = new ArrayList<>();
  private final int start;
  private final int accept;
  private final BitSet[] closures;

  private GlobAutomaton(GlobPattern pattern) {
    start = newState();
    List<GlobSegment> segments = pattern.segments();
    boolean dot = pattern.wildcardsMatchDot();
    int current = start;
    boolean needSeparator = false;
    for (int i = 0; i < segments.size(); i++) {
      GlobSegment segment = segments.get(i);
      boolean last = i == segments.size() - 1;
      if (!segment.isGlobstar()) {
        if (needSeparator) {
          current = step(current, SLASH);
        }
        current = segment(current, segment, dot);
        needSeparator = true;
      } else if (!last) {
        // (S /)* , the separator before the next segment included.
        if (needSeparator) {
          current = step(current, SLASH);
        }
        int loop = current;
        edge(anySegment(loop, dot), SLASH, loop);
        needSeparator = false;
      } else if (needSeparator) {
        // (/ S)* : a trailing ** also matches the directory it follows.
        int loop = current;
        int afterSlash = step(loop, SLASH);
        epsilon(anySegment(afterSlash, dot), loop);
      } else {
        // S (/ S)* : a pattern that is only ** matches one or more segments.
        int segmentEnd = anySegment(current, dot);
        int afterSlash = step(segmentEnd, SLASH);
        epsilon(anySegment(afterSlash, dot), segmentEnd);
        current = segmentEnd;
      }
    }
    accept = current;
    closures = new BitSet[edges.size()];
    for (int state = 0; state < closures.length; state++) {
      closures[state] = closureOf(state);
    }
  }

  static GlobAutomaton of(GlobPattern pattern) {
    return new GlobAutomaton(pattern);
  }

  int stateCount() {
    return edges.size();
  }

  /** The states reachable from the start without reading anything. */
  BitSet initial() {
    return (BitSet) closures[start].clone();
  }

  /** The states reachable from {@code states} by reading {@code codePoint}, closed under empty moves. */
  BitSet step(BitSet states, int codePoint) {
    BitSet next = new BitSet(edges.size());
    for (int state = states.nextSetBit(0); state >= 0; state = states.nextSetBit(state + 1)) {
      for (Edge edge : edges.get(state)) {
        if (edge.on().contains(codePoint)) {
          next.or(closures[edge.to()]);
        }
      }
    }
    return next;
  }

  boolean accepts(BitSet states) {
    return states.get(accept);
  }

  /** Whether the automaton accepts {@code text}. */
  boolean accepts(String text) {
    BitSet states = initial();
    for (int i = 0; i < text.length() && !states.isEmpty(); i += Character.charCount(text.codePointAt(i))) {
      states = step(states, text.codePointAt(i));
    }
    return accepts(states);
  }

  /** Adds the points where any edge's set changes membership. */
  void addBoundaries(SortedSet<Integer> boundaries) {
    edges.forEach(out -> out.forEach(edge -> edge.on().addBoundaries(boundaries)));
  }

  /**
   * One non-{@code **} segment. States are pairs of a unit position and whether a code point of
   * the segment was read yet; while none was, a wildcard may not read the {@code .} of a hidden
   * name unless {@code dot}. Entering at (0, none read), leaving at (end, some read).
   */
  private int segment(int from, GlobSegment segment, boolean dot) {
    boolean guarded = !dot && !segment.startsWithLiteralDot();
    int n = segment.length();
    int[][] state = new int[n + 1][2];
    for (int position = 0; position <= n; position++) {
      state[position][0] = position == 0 ? from : newState();
      state[position][1] = newState();
    }
    for (int position = 0; position < n; position++) {
      for (int read = 0; read <= 1; read++) {
        boolean atStart = read == 0 && guarded;
        CodePointSet set = segment.unitSet(position);
        if (set == null) {
          epsilon(state[position][read], state[position + 1][read]);
          edge(state[position][read], atStart ? NOT_SLASH_OR_DOT : NOT_SLASH, state[position][1]);
        } else {
          CodePointSet allowed = set.minus('/');
          if (atStart && segment.unit(position) < 0) {
            allowed = allowed.minus('.');
          } else if (atStart && segment.unit(position) == '.') {
            continue;
          }
          edge(state[position][read], allowed, state[position + 1][1]);
        }
      }
    }
    return state[n][1];
  }

  /** A segment matched by {@code **}: one or more code points, not {@code /}, not a leading {@code .} unless {@code dot}. */
  private int anySegment(int from, boolean dot) {
    int inside = newState();
    edge(from, dot ? NOT_SLASH : NOT_SLASH_OR_DOT, inside);
    edge(inside, NOT_SLASH, inside);
    return inside;
  }

  private int step(int from, CodePointSet on) {
    int to = newState();
    edge(from, on, to);
    return to;
  }

  private int newState() {
    epsilon.add(new ArrayList<>());
    edges.add(new ArrayList<>());
    return edges.size() - 1;
  }

  private void edge(int from, CodePointSet on, int to) {
    if (!on.isEmpty()) {
      edges.get(from).add(new Edge(on, to));
    }
  }

  private void epsilon(int from, int to) {
    epsilon.get(from).add(to);
  }

  private BitSet closureOf(int state) {
    BitSet closed = new BitSet(edges.size());
    List<Integer> work = new ArrayList<>(List.of(state));
    closed.set(state);
    while (!work.isEmpty()) {
      int next = work.remove(work.size() - 1);
      for (int target : epsilon.get(next)) {
        if (!closed.get(target)) {
          closed.set(target);
          work.add(target);
        }
      }
    }
    return closed;
  }
}
