package dev.capability.kernel.core.internal.audit;

import java.util.Objects;

/**
 * A secret found, located but never quoted: no part of the matched text is kept, so nothing that
 * prints a finding can leak it.
 *
 * @param rule the {@link SecretRule#id()} that matched
 * @param source the repository-relative path, or {@code stdout} / {@code stderr}
 * @param line the 1-based line the match starts on
 */
public record SecretFinding(String rule, String source, int line) {

  public SecretFinding {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(source, "source");
    if (line < 1) {
      throw new IllegalArgumentException("line numbers start at 1, got " + line);
    }
  }
}
