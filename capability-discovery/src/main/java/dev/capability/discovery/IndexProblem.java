package dev.capability.discovery;

import java.net.URI;
import java.util.Objects;

/**
 * Something wrong with one index or link; the traversal went on without it.
 *
 * @param index the URL concerned (canonical where it could be canonicalized)
 * @param code one of {@link DiscoveryCodes}
 * @param message what was wrong, for people
 */
public record IndexProblem(URI index, String code, String message) {
  public IndexProblem {
    Objects.requireNonNull(index, "index");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }
}
