package dev.capability.kernel.api.policy;

/**
 * What an operand holding {@code =} is, at one level of argument rules. Some programs read such
 * an operand as an assignment, not as a file or text: {@code make CC=sh} sets a variable,
 * {@code dd of=/dev/sda} names the output file. Under {@link #OPERAND} the operand rule would
 * check {@code of=/dev/sda} as a relative path and accept it.
 */
public enum KeyValueMode {
  /** An operand holding {@code =} is an ordinary operand; the default, for programs that read it as a name or text. */
  OPERAND,
  /** An operand holding {@code =} is refused ({@code make}). */
  REFUSE,
  /**
   * An operand {@code NAME=value} is accepted only when {@code NAME} is listed in
   * {@link ArgumentRules#keyValues()} and its value satisfies the listed rule ({@code dd}); it is
   * not counted as an operand. Every other operand holding {@code =} is refused.
   */
  TYPED
}
