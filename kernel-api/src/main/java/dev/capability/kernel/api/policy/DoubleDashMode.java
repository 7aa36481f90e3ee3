package dev.capability.kernel.api.policy;

/**
 * How the end-of-options marker {@code --} is treated at one level of argument rules. In
 * {@link OptionSyntax#FIND} syntax it can only end find's leading options, before the starting
 * points.
 */
public enum DoubleDashMode {
  /** {@code --} is refused. Operands starting with {@code -} can then never be given. */
  FORBIDDEN,
  /**
   * {@code --} may appear once; operands may come before or after it, and only after it may an
   * operand start with {@code -}.
   */
  OPTIONAL,
  /** Operands are accepted only after {@code --}; {@code --} itself may be given without any. */
  REQUIRED_BEFORE_OPERANDS
}
