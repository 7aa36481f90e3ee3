package dev.capability.kernel.core.internal.parse;

/**
 * Decides whether a {@code !} or {@code ^} could be history-expanded by an interactive bash.
 * Non-interactive bash never does this, but a command accepted here must keep its meaning when a
 * person pastes it into a terminal, so such a character is refused.
 *
 * <p>History expansion runs on each line before the shell parses it, with its own idea of quoting
 * that does not match the shell's, and with a quoting state carried from line to line that is
 * not reproducible from the text alone. So the rule here deliberately ignores quoting. It relies
 * only on what readline's {@code history_expand} checks before it expands anything: a line is
 * left alone unless it starts with {@code ^} (a quick substitution) or holds a {@code !} followed
 * by a character outside {@code history_no_expand_chars} (space, TAB, newline, carriage return,
 * {@code =}) and not the end of the line; and a {@code !} right after a backslash is always
 * skipped, whatever the quoting state. Everything else is refused, inside quotes too.
 */
final class HistoryExpansion {
  private HistoryExpansion() {}

  /** Whether the {@code !} or {@code ^} at {@code index} could be expanded. */
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
}
