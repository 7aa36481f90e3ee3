package dev.capability.workspace;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What became of a shipped workspace: what was shipped, what came back, and whether it was
 * applied to the repository.
 *
 * @param inputBytes the bytes of the input archive written (0 when none was written)
 * @param inputEntries the entries of the input archive
 * @param inputSha256 the hex SHA-256 of the input archive as written; empty when none was written
 * @param returnedBytes the bytes of the returned archive read (up to the point a refusal stopped
 *     reading)
 * @param returnedEntries the entries of the returned archive read
 * @param status whether the returned archive was applied
 * @param code the stable code of a refusal or of {@link Status#NOT_RETURNED}; empty when applied
 * @param message what happened, naming the entry and what was wrong on a refusal
 * @param created repository-relative paths the return created, sorted
 * @param changed repository-relative paths whose content, type or mode the return changed, sorted
 * @param removed repository-relative paths the return removed, sorted
 */
public record WorkspaceOutcome(
    long inputBytes,
    long inputEntries,
    Optional<String> inputSha256,
    long returnedBytes,
    long returnedEntries,
    Status status,
    Optional<String> code,
    String message,
    List<String> created,
    List<String> changed,
    List<String> removed) {

  /** Whether the returned archive reached the repository. */
  public enum Status {
    /** The whole archive passed its checks and the writable roots now hold exactly its content. */
    APPLIED,
    /**
     * The archive failed a check and nothing of it was applied; or, with {@link
     * WorkspaceCodes#RETURN_APPLY_FAILED}, applying it failed part way ({@link #created()},
     * {@link #changed()} and {@link #removed()} then say how far it got).
     */
    REFUSED,
    /** The backend never handed an archive back, or its stream failed; nothing was applied. */
    NOT_RETURNED
  }

  public WorkspaceOutcome {
    Objects.requireNonNull(inputSha256, "inputSha256");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    if (code.isPresent() == (status == Status.APPLIED)) {
      throw new IllegalArgumentException("a code belongs to a refused or unreturned workspace only, status was " + status);
    }
    created = List.copyOf(created);
    changed = List.copyOf(changed);
    removed = List.copyOf(removed);
  }
}
