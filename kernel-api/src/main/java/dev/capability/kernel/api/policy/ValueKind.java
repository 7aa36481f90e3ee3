package dev.capability.kernel.api.policy;

/** The type of a flag value or an operand. */
public enum ValueKind {
  /**
   * A relative path inside the workspace: non-empty, not starting with {@code /} or {@code ~},
   * no {@code ..} segment, no control or invisible format characters, and starting with
   * {@code -} only as an operand after {@code --} or as the value of a {@code NAME=value}
   * operand.
   */
  PATH,
  /** One of a fixed set of strings. */
  LITERAL,
  /** A decimal integer without sign prefix {@code +} or leading zeros, optionally bounded. */
  INTEGER,
  /**
   * Free text that the program reads as text, never as a path: a search pattern or a glob, for
   * example. It may be empty and may contain {@code /}, {@code ..} and {@code ~}; it contains no
   * control characters (tabs and newlines included), invisible format or bidirectional
   * characters, line or paragraph separators, and starts with {@code -} only as an operand after
   * {@code --} or as the value of a {@code NAME=value} operand.
   */
  STRING,
  /**
   * A GNU sed script that only selects and prints: addresses (line numbers, {@code $},
   * {@code /regex/} and {@code \cREGEXc} with flags {@code I} and {@code M},
   * {@code first~step}, ranges with {@code ,}, {@code +N} and {@code ~N}), {@code !}, blocks
   * {@code { }} and {@code ;}, and the commands {@code p P = l q Q d D n N g G h H x z}, {@code y}
   * and {@code s} with only the flags {@code g p i I m M} and a count. Commands that run programs
   * or touch files ({@code e}, {@code r}, {@code R}, {@code w}, {@code W}, the {@code e} and
   * {@code w} flags of {@code s}), all other commands, comments, newlines and anything the
   * validator cannot parse exactly as GNU sed does are refused. Otherwise as {@link #STRING}.
   */
  SED_SCRIPT
}
