package dev.capability.workflow.internal;

import dev.capability.kernel.core.WritePaths;
import dev.capability.workflow.Assumption;
import dev.capability.workflow.CorrectionRadius;
import dev.capability.workflow.Phase;
import dev.capability.workflow.RadiusBounds;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Computes a correction radius: a breadth-first walk from the invalidated assumption over the
 * recorded links (an assumption to the assumptions and phases that depend on it) and the plan's
 * dependency edges (a phase to the phases that depend on it), at most {@code maxDepth} links deep.
 * Each assumption reached gives its file links (a glob gives the files of the working tree it
 * matches; a path gives itself, present or not); each phase reached gives its deliverables that
 * are repository paths. Files are taken nearest first, and within one depth in sorted order, up to
 * {@code maxFiles}. Then the phase's authority is applied: what it refuses is excluded, with why.
 * The same graph, tree and authority always give the same radius.
 */
public final class RadiusCalculator {
  private static final String GLOB_CHARACTERS = "*?[]";

  private RadiusCalculator() {}

  /**
   * @param root the invalidated assumption
   * @param assumptions every recorded assumption by id
   * @param phases the plan's phases
   * @param treeFiles the files of the working tree, repository-relative
   * @param bounds the bounds
   * @param refusedByPhase given the files reached, those the phase's authority refuses, each with why
   */
  public static CorrectionRadius compute(Assumption root, Map<String, Assumption> assumptions, List<Phase> phases,
      Collection<String> treeFiles, RadiusBounds bounds, Function<List<String>, Map<String, String>> refusedByPhase) {
    Map<String, Phase> phaseById = new LinkedHashMap<>();
    Map<String, Set<String>> phaseDependents = new TreeMap<>();
    for (Phase phase : phases) {
      phaseById.put(phase.id(), phase);
      for (String dependency : phase.dependsOn()) {
        phaseDependents.computeIfAbsent(dependency, k -> new TreeSet<>()).add(phase.id());
      }
    }
    List<String> sortedTree = new ArrayList<>(new TreeSet<>(treeFiles));

    List<String> reachedAssumptions = new ArrayList<>();
    List<String> reachedPhases = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    Deque<Node> queue = new ArrayDeque<>();
    queue.add(new Node(true, root.id(), 0));
    seen.add("a:" + root.id());
    Set<String> files = new LinkedHashSet<>();
    boolean depthBoundReached = false;
    boolean fileBoundReached = false;
    int currentDepth = 0;
    TreeSet<String> levelFiles = new TreeSet<>();
    while (!queue.isEmpty()) {
      Node node = queue.poll();
      if (node.depth != currentDepth) {
        fileBoundReached |= take(levelFiles, files, bounds.maxFiles());
        levelFiles.clear();
        currentDepth = node.depth;
      }
      List<Node> next = new ArrayList<>();
      if (node.assumption) {
        Assumption a = assumptions.get(node.id);
        if (a == null) {
          continue;
        }
        reachedAssumptions.add(a.id());
        for (String link : a.files()) {
          levelFiles.addAll(expand(link, sortedTree));
        }
        new TreeSet<>(a.dependents()).forEach(id -> next.add(new Node(true, id, node.depth + 1)));
        new TreeSet<>(a.phases()).forEach(id -> next.add(new Node(false, id, node.depth + 1)));
      } else {
        Phase phase = phaseById.get(node.id);
        if (phase == null) {
          continue;
        }
        reachedPhases.add(phase.id());
        for (String deliverable : phase.deliverables()) {
          if (isRepositoryPath(deliverable)) {
            levelFiles.add(deliverable);
          }
        }
        phaseDependents.getOrDefault(phase.id(), Set.of()).forEach(id -> next.add(new Node(false, id, node.depth + 1)));
      }
      for (Node n : next) {
        String key = (n.assumption ? "a:" : "p:") + n.id;
        if (seen.contains(key)) {
          continue;
        }
        if (n.depth > bounds.maxDepth()) {
          depthBoundReached = true;
          continue;
        }
        seen.add(key);
        queue.add(n);
      }
    }
    fileBoundReached |= take(levelFiles, files, bounds.maxFiles());

    Map<String, String> excluded = new TreeMap<>();
    List<String> candidates = new ArrayList<>();
    for (String file : files) {
      if (file.chars().anyMatch(c -> GLOB_CHARACTERS.indexOf(c) >= 0)) {
        excluded.put(file, "its name has glob syntax, which a write scope cannot spell literally");
      } else {
        candidates.add(file);
      }
    }
    Map<String, String> refused = candidates.isEmpty() ? Map.of() : refusedByPhase.apply(candidates);
    excluded.putAll(refused);
    List<String> radius = candidates.stream().filter(f -> !refused.containsKey(f)).sorted().toList();
    return new CorrectionRadius(radius, excluded, reachedAssumptions, reachedPhases, bounds, depthBoundReached, fileBoundReached);
  }

  private record Node(boolean assumption, String id, int depth) {}

  /** Adds {@code level} to {@code files} in order until {@code max}; whether something did not fit. */
  private static boolean take(TreeSet<String> level, Set<String> files, int max) {
    boolean cut = false;
    for (String file : level) {
      if (files.contains(file)) {
        continue;
      }
      if (files.size() >= max) {
        cut = true;
        break;
      }
      files.add(file);
    }
    return cut;
  }

  private static List<String> expand(String link, List<String> tree) {
    if (link.chars().noneMatch(c -> GLOB_CHARACTERS.indexOf(c) >= 0)) {
      return List.of(link);
    }
    return tree.stream().filter(file -> WritePaths.matches(link, file)).toList();
  }

  /** Whether {@code text} is a repository-relative path: not empty or absolute, no {@code .}, {@code ..} or empty segment, no backslash or NUL. */
  public static boolean isRepositoryPath(String text) {
    if (text.isEmpty() || text.startsWith("/") || text.indexOf('\\') >= 0 || text.indexOf('\0') >= 0 || text.startsWith("~")) {
      return false;
    }
    for (String segment : text.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return false;
      }
    }
    return true;
  }
}
