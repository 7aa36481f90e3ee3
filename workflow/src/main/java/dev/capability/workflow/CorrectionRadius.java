package dev.capability.workflow;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The files a correction may change: those reachable from an invalidated assumption through the
 * recorded links, within the bounds, and allowed by the phase's authority.
 *
 * @param files the repository-relative files, sorted; the correction layer's write scopes
 * @param excluded files reached but left out, each with why: outside the phase's authority
 *     (operator ∩ contract ∩ phase), or a name a write scope cannot spell literally
 * @param reachedAssumptions the assumptions reached, the invalidated one first, in the order reached
 * @param reachedPhases the phases reached, in the order reached
 * @param bounds the bounds it was computed with
 * @param depthBoundReached whether links went on past {@code bounds.maxDepth()}
 * @param fileBoundReached whether more than {@code bounds.maxFiles()} files were reached (the
 *     nearest were kept)
 */
public record CorrectionRadius(
    List<String> files,
    Map<String, String> excluded,
    List<String> reachedAssumptions,
    List<String> reachedPhases,
    RadiusBounds bounds,
    boolean depthBoundReached,
    boolean fileBoundReached) {
  public CorrectionRadius {
    files = List.copyOf(files);
    excluded = Collections.unmodifiableMap(new TreeMap<>(excluded));
    reachedAssumptions = List.copyOf(reachedAssumptions);
    reachedPhases = List.copyOf(reachedPhases);
    Objects.requireNonNull(bounds, "bounds");
  }

  /** Whether a bound cut the radius short. */
  public boolean boundReached() {
    return depthBoundReached || fileBoundReached;
  }
}
