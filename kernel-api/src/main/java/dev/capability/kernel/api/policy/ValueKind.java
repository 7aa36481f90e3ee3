package dev.capability.kernel.api.policy;

/** The type of a flag value or an operand. */
public enum ValueKind {
  /**
   * A relative path inside the workspace: non-empty, not starting with {@code /} or {@code ~},
   * no {@code ..} segment, no control or invisible format characters, and starting with
   * {@code -} only as an operand after {@code --}.
   */
  PATH,
  /** One of a fixed set of strings. */
  LITERAL,
  /** A decimal integer without sign prefix {@code +} or leading zeros, optionally bounded. */
  INTEGER
}
