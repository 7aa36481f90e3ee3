package dev.capability.evaluator;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What every command did on one candidate.
 *
 * @param candidate the candidate as configured
 * @param commit the commit its ref resolved to when the evaluation started
 * @param cells one per configured command, in the configuration's order
 * @param error why the candidate's worktree could not be made or removed; null when it could
 */
public record CandidateResult(Candidate candidate, String commit, List<CellResult> cells, @Nullable String error) {
  public CandidateResult {
    Objects.requireNonNull(candidate, "candidate");
    Objects.requireNonNull(commit, "commit");
    cells = List.copyOf(cells);
  }

  /** True when every command passed on this candidate. */
  public boolean passed() {
    return error == null && cells.stream().allMatch(CellResult::passed);
  }

  /** The cell of the command named {@code command}. */
  public CellResult cell(String command) {
    return cells.stream().filter(c -> c.command().equals(command)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no command named '" + command + "'"));
  }
}
