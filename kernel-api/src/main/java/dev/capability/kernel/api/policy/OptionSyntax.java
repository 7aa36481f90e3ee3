package dev.capability.kernel.api.policy;

/**
 * How the program reads its arguments at one level of argument rules. The rules are checked the
 * way the program will read argv, so that no argument the rules took for an operand reaches the
 * program as an option, and the other way round.
 */
public enum OptionSyntax {
  /**
   * GNU {@code getopt_long} with permutation, the default: flags may stand anywhere before
   * {@code --}, also after operands; short flags may be bundled ({@code -la}) and take their
   * value attached ({@code -n5}) or as the next argument; long flags take theirs after {@code =}
   * or as the next argument. {@code --} ends the options.
   */
  GETOPT,
  /**
   * Options stop at the first operand (POSIX {@code getopt}, {@code python3}, {@code node},
   * {@code java}, {@code env}, {@code xargs}): from it on every argument is an operand, even one
   * starting with {@code -}, since the program hands it to the script or command it runs. A flag
   * with {@linkplain FlagRule#arguments() arguments of its own} ends the options too, and the
   * rest of argv is read by those rules ({@code python3 -m pytest ...}). Flags match their exact
   * spelling only: no bundles, no attached short values.
   */
  OPTIONS_FIRST,
  /**
   * GNU find: leading options ({@code -H -L -P -D DEBUG -OLEVEL}), then the starting points (the
   * operands), then the expression, which begins at the first argument that starts with
   * {@code -} or is {@code (} or {@code !}. {@code --} may only end the leading options; it does
   * not let a starting point start with {@code -}. Every primary of the expression is a flag of
   * the rule, listed with the number of arguments find reads for it; {@code ( ) ! ,} are
   * operators. A word in the expression that is not a primary's argument is refused.
   */
  FIND,
  /**
   * GNU tar: a first argument that does not start with {@code -} holds old-style option letters
   * ({@code tar tvf a.tar}): each letter is the flag {@code -LETTER}, and letters that take a
   * value take the following arguments in order. The rest is read as {@link #GETOPT}. An archive
   * name with {@code :} before its first {@code /} is refused, since tar reads it as
   * {@code HOST:FILE} and starts a remote shell.
   */
  TAR
}
