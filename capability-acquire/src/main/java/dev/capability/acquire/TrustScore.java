package dev.capability.acquire;

import java.util.List;
import java.util.Objects;

/**
 * An advisory number from 0 to {@link #max()} that summarizes observations, with the points of
 * each component and why. It is shown and recorded; it never grants anything and no policy reads
 * it.
 */
public record TrustScore(int total, int max, List<Component> components) {
  /** One itemized part of the score. */
  public record Component(String name, int points, int max, String reason) {
    public Component {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(reason, "reason");
      if (points < 0 || points > max) {
        throw new IllegalArgumentException(name + ": points " + points + " outside 0.." + max);
      }
    }
  }

  public TrustScore {
    components = List.copyOf(components);
    if (total != components.stream().mapToInt(Component::points).sum() || max != components.stream().mapToInt(Component::max).sum()) {
      throw new IllegalArgumentException("the total and max must be the sums of the components");
    }
  }

  public static TrustScore of(List<Component> components) {
    return new TrustScore(
        components.stream().mapToInt(Component::points).sum(), components.stream().mapToInt(Component::max).sum(), components);
  }
}
