package dev.capability.cli.internal;

/** The stable codes the CLI itself raises; {@code docs/cli.md} says where each comes from. */
public final class CliCodes {
  private CliCodes() {}

  /** The command line is malformed in a way picocli cannot see: an option value out of range, options that exclude each other. */
  public static final String USAGE = "USAGE";
  /** A command on stdin or on the command line is not valid UTF-8. */
  public static final String INPUT_NOT_UTF8 = "INPUT_NOT_UTF8";
  /** {@code policy init --from} names no shipped template. */
  public static final String POLICY_TEMPLATE_UNKNOWN = "POLICY_TEMPLATE_UNKNOWN";
  /** {@code policy init} found a policy file there already and was not given {@code --force}. */
  public static final String POLICY_EXISTS = "POLICY_EXISTS";
  /** {@code policy init} could not write the policy file or its directories. */
  public static final String POLICY_WRITE_FAILED = "POLICY_WRITE_FAILED";
  /** {@code contract set}, {@code work-plan save}, {@code work-plan amend} or {@code playbook hints} could not read the file it was given. */
  public static final String INPUT_UNREADABLE = "INPUT_UNREADABLE";
}
