package dev.capability.kernel.api;

/**
 * A command string was refused by the shell-free parser. Names the construct that was refused,
 * the character offset where it starts (in UTF-16 code units of the input), and an escaped
 * rendering of the whole input so that control characters are visible in logs.
 */
public final class ShellSyntaxException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  /** The code every parser refusal carries. */
  public static final String CODE = "SHELL_SYNTAX";

  private final String construct;
  private final int offset;
  private final String escapedInput;

  public ShellSyntaxException(String construct, int offset, String escapedInput, String message) {
    super(CODE, message);
    this.construct = construct;
    this.offset = offset;
    this.escapedInput = escapedInput;
  }

  /** A short stable name for what was refused, for example {@code pipe} or {@code command-substitution}. */
  public String construct() {
    return construct;
  }

  /** Offset of the refused construct in the input, counted in UTF-16 code units from 0. */
  public int offset() {
    return offset;
  }

  /** The input with every non-printable or non-ASCII character escaped as {@code \\uXXXX}. */
  public String escapedInput() {
    return escapedInput;
  }
}
