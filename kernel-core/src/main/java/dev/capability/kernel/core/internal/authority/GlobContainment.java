package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.SCOPE_PATTERN_INVALID;

import dev.capability.kernel.api.authority.AuthorityException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Decides whether every path one glob matches is matched by at least one of some other globs, and
 * if not, finds the shortest path that shows it. This is how a layer's write scope is proved to
 * stay inside the operator's, exactly rather than by comparing pattern text.
 *
 * <p>The search runs the automata of both sides together with a small automaton for valid paths
 * (non-empty segments, none {@code .} or {@code ..}), breadth first, over one representative code
 * point per interval on which every automaton agrees. It is bounded; a comparison too large to
 * finish is refused, never assumed to hold.
 */
final class GlobContainment {
  private GlobContainment() {}

  /** The most search states explored before the comparison is refused. */
  static final int MAX_STATES = 200_000;

  private static final String PREFERRED = "xyzabcdefghijklmnopqrstuvw0123456789_-";

  // The valid-path automaton: at a segment's start, after ".", after "..", inside a real name.
  private static final int SEGMENT_START = 0;
  private static final int ONE_DOT = 1;
  private static final int TWO_DOTS = 2;
  private static final int NAME = 3;
  private static final int DEAD = -1;

  private record Node(BitSet inner, int path, BitSet outer) {}

  private record Parent(Node node, int codePoint) {}

  /**
   * A valid repository-relative path that {@code inner} matches and none of {@code outer} does;
   * empty when there is none.
   *
   * @throws AuthorityException {@code SCOPE_PATTERN_INVALID} when the comparison exceeds its bound
   */
  static Optional<String> counterexample(GlobPattern inner, List<GlobPattern> outer) {
    GlobAutomaton innerAutomaton = GlobAutomaton.of(inner);
    List<GlobAutomaton> outerAutomata = outer.stream().map(GlobAutomaton::of).toList();
    Outer outers = new Outer(outerAutomata);
    int[] representatives = representatives(innerAutomaton, outerAutomata);
    Node first = new Node(innerAutomaton.initial(), SEGMENT_START, outers.initial());
    Map<Node, Parent> parents = new HashMap<>();
    parents.put(first, null);
    ArrayDeque<Node> queue = new ArrayDeque<>(List.of(first));
    while (!queue.isEmpty()) {
      Node node = queue.removeFirst();
      if (innerAutomaton.accepts(node.inner()) && node.path() == NAME && !outers.accepts(node.outer())) {
        return Optional.of(path(node, parents));
      }
      for (int codePoint : representatives) {
        BitSet inner2 = innerAutomaton.step(node.inner(), codePoint);
        int path2 = pathStep(node.path(), codePoint);
        if (inner2.isEmpty() || path2 == DEAD) {
          continue;
        }
        Node next = new Node(inner2, path2, outers.step(node.outer(), codePoint));
        if (!parents.containsKey(next)) {
          if (parents.size() >= MAX_STATES) {
            throw new AuthorityException(SCOPE_PATTERN_INVALID, "comparing write scope " + Printable.quote(inner.source())
                + " with " + outer + " needs more than " + MAX_STATES + " steps; simplify the patterns");
          }
          parents.put(next, new Parent(node, codePoint));
          queue.addLast(next);
        }
      }
    }
    return Optional.empty();
  }

  private static int[] representatives(GlobAutomaton inner, List<GlobAutomaton> outer) {
    SortedSet<Integer> boundaries = new TreeSet<>();
    CodePointSet.UNIVERSE.addBoundaries(boundaries);
    CodePointSet.of('/').addBoundaries(boundaries);
    CodePointSet.of('.').addBoundaries(boundaries);
    inner.addBoundaries(boundaries);
    outer.forEach(automaton -> automaton.addBoundaries(boundaries));
    List<Integer> points = new ArrayList<>(boundaries);
    List<Integer> representatives = new ArrayList<>();
    for (int i = 0; i + 1 < points.size(); i++) {
      int low = points.get(i);
      int high = points.get(i + 1) - 1;
      if (CodePointSet.UNIVERSE.contains(low)) {
        representatives.add(representative(low, high));
      }
    }
    // Breadth-first search tries symbols in this order, so the shortest counterexample found first reads well.
    representatives.sort(Comparator.comparingInt((Integer c) -> preference(c)).thenComparingInt(c -> c));
    return representatives.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int preference(int codePoint) {
    int index = codePoint < 0x80 ? PREFERRED.indexOf(codePoint) : -1;
    return index < 0 ? PREFERRED.length() : index;
  }

  /** A readable code point of {@code [low, high]} when there is one, for the message. */
  private static int representative(int low, int high) {
    for (int i = 0; i < PREFERRED.length(); i++) {
      char c = PREFERRED.charAt(i);
      if (c >= low && c <= high) {
        return c;
      }
    }
    return low;
  }

  private static int pathStep(int state, int codePoint) {
    if (codePoint == '/') {
      return state == NAME ? SEGMENT_START : DEAD;
    }
    if (codePoint == '.') {
      return switch (state) {
        case SEGMENT_START -> ONE_DOT;
        case ONE_DOT -> TWO_DOTS;
        default -> NAME;
      };
    }
    return NAME;
  }

  /** The outer automata run side by side in one bit set: automaton k's states sit at offset k * stride. */
  private static final class Outer {
    private final List<GlobAutomaton> automata;
    private final int stride;

    Outer(List<GlobAutomaton> automata) {
      this.automata = automata;
      this.stride = automata.stream().mapToInt(GlobAutomaton::stateCount).max().orElse(0);
    }

    BitSet initial() {
      BitSet all = new BitSet();
      for (int k = 0; k < automata.size(); k++) {
        place(automata.get(k).initial(), k, all);
      }
      return all;
    }

    BitSet step(BitSet states, int codePoint) {
      BitSet all = new BitSet();
      for (int k = 0; k < automata.size(); k++) {
        place(automata.get(k).step(states.get(k * stride, (k + 1) * stride), codePoint), k, all);
      }
      return all;
    }

    boolean accepts(BitSet states) {
      for (int k = 0; k < automata.size(); k++) {
        if (automata.get(k).accepts(states.get(k * stride, (k + 1) * stride))) {
          return true;
        }
      }
      return false;
    }

    private void place(BitSet states, int k, BitSet all) {
      for (int s = states.nextSetBit(0); s >= 0; s = states.nextSetBit(s + 1)) {
        all.set(k * stride + s);
      }
    }
  }

  private static String path(Node node, Map<Node, Parent> parents) {
    StringBuilder reversed = new StringBuilder();
    for (Parent parent = parents.get(node); parent != null; parent = parents.get(parent.node())) {
      reversed.append(new StringBuilder(new String(Character.toChars(parent.codePoint()))).reverse());
    }
    return reversed.reverse().toString();
  }
}
