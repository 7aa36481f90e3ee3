package dev.capability.kernel.core.internal.parse;

/**
 * Decides whether a {@code !} or {@code ^} could be history-expanded by an interactive bash.
 * Non-interactive bash never does this, but a command accepted here must keep its meaning when a
 * person pastes it into a terminal, so such a character is refused.
 *
 * <p>History expansion runs on each line before the shell parses it, with its own idea of quoting
 * that does not match the shell's, differs between readline versions, and carries a quoting state
 * from line to line that is not reproducible from the text alone. So the rule here trusts quoting
 * in only one case that every readline since bash 2 reads exactly as the shell does: a {@code !}
 * inside single quotes on the first line, with no double quote, backslash or newline anywhere
 * before it. There readline pairs the single quotes as the shell does and never expands inside
 * them. Everywhere else it relies only on what readline's {@code history_expand} checks before it
 * expands anything, whatever the quoting: a line is left alone unless it starts with {@code ^} (a
 * quick substitution) or holds a {@code !} followed by a character outside
 * {@code history_no_expand_chars} (space, TAB, newline, carriage return, {@code =}) and not the end
 * of the line; and a {@code !} right after a backslash is always skipped.
 */
final class HistoryExpansion {
  private HistoryExpansion() {}

  /**
   * Whether the {@code !} or {@code ^} at {@code index} could be expanded, judged without quoting.
   * Callers that know the character is single-quoted also ask {@link #singleQuotesHonouredBefore}.
   */
  static boolean couldExpandAt(String input, int index) {
    char c = input.charAt(index);
    if (c == '^') {
      return index == 0 || input.charAt(index - 1) == '\n';
    }
    if (index > 0 && input.charAt(index - 1) == '\\') {
      return false;
    }
    if (index + 1 == input.length()) {
      return false;
    }
    char next = input.charAt(index + 1);
    return next != ' ' && next != '\t' && next != '\n' && next != '\r' && next != '=';
  }

  /**
   * The end of the prefix of {@code input} in which history expansion honours the shell's single
   * quotes: the index of the first double quote, backslash or newline, or the length of the input.
   * A single-quoted {@code !} or {@code ^} before this index is never expanded.
   */
  static int singleQuotesHonouredBefore(String input) {
    int end = input.length();
    for (char c : new char[] {'"', '\\', '\n'}) {
      int at = input.indexOf(c);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    return end;
  }
}
