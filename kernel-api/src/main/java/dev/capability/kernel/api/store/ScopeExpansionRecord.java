package dev.capability.kernel.api.store;

import java.util.List;
import java.util.Objects;

/**
 * A widening of a correction's radius, with the reason for it.
 *
 * @param assumptionId the assumption whose correction it widens
 * @param paths the repository-relative paths or globs added, at least one
 * @param justification why; never blank
 */
public record ScopeExpansionRecord(String assumptionId, List<String> paths, String justification) implements CorrectionRecord {
  public ScopeExpansionRecord {
    Records.requireText(assumptionId, "assumptionId");
    paths = List.copyOf(Objects.requireNonNull(paths, "paths"));
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("an expansion adds at least one path");
    }
    if (justification == null || justification.isBlank()) {
      throw new IllegalArgumentException("an expansion needs a justification that is not blank");
    }
  }

  @Override
  public String event() {
    return "SCOPE_EXPANDED";
  }
}
