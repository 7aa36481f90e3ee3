package dev.capability.kernel.core.internal.parse;

/**
 * Finds the first {@code !} or {@code ^} an interactive bash would history-expand. Non-interactive
 * bash never does this, but a command accepted here must keep its meaning when a person pastes it
 * into a terminal, so such a character is refused.
 *
 * <p>History expansion runs on each line before the shell parses it and has its own, cruder idea
 * of quoting, so the shell's quoting cannot be reused: {@code echo \\'!x'} is a single-quoted
 * {@code !x} to the shell but not to readline. This class replays, line by line, the loop of
 * readline's {@code history_expand} that decides whether a line needs expansion at all, with
 * bash's settings ({@code history_quotes_inhibit_expansion} on, the default
 * {@code history_no_expand_chars}). A line that continues a quoted string starts in the quoting
 * state the shell is in, as bash tells readline. Readline then expands only some of the candidates
 * this loop finds, and bash's extra exemptions ({@code bash_history_inhibit_expansion}) are left
 * out: both can only make this class refuse more than necessary, never less.
 */
final class HistoryExpansion {
  /** The shell's quoting state where a line starts. */
  enum LineStart {
    UNQUOTED,
    IN_SINGLE_QUOTES,
    IN_DOUBLE_QUOTES
  }

  private HistoryExpansion() {}

  /**
   * The offset of the first character readline would expand in the line starting at
   * {@code lineStart} (up to the next newline), or -1 when there is none.
   */
  static int firstExpansionInLine(String input, int lineStart, LineStart state) {
    if (lineStart < input.length() && input.charAt(lineStart) == '^') {
      return lineStart; // quick substitution, ^old^new
    }
    int firstBang = input.indexOf('!', lineStart);
    if (firstBang < 0) {
      return -1;
    }
    int lineEnd = input.indexOf('\n', lineStart);
    if (lineEnd < 0) {
      lineEnd = input.length();
    }
    if (firstBang >= lineEnd) {
      return -1;
    }
    boolean doubleQuoted = state == LineStart.IN_DOUBLE_QUOTES;
    int i = lineStart;
    if (state == LineStart.IN_SINGLE_QUOTES) {
      i = closingSingleQuote(input, i, lineEnd, false) + 1;
    }
    for (; i < lineEnd; i++) {
      char c = input.charAt(i);
      char next = i + 1 < lineEnd ? input.charAt(i + 1) : 0;
      if (c == '!') {
        if (!isNoExpandCharacter(next) && !(doubleQuoted && next == '"')) {
          return i;
        }
      } else if (doubleQuoted && c == '\\' && next == '"') {
        i++;
      } else if (c == '"') {
        doubleQuoted = !doubleQuoted;
      } else if (!doubleQuoted && c == '\'') {
        i = closingSingleQuote(input, i + 1, lineEnd, i > 0 && input.charAt(i - 1) == '$');
      } else if (c == '\\' && (next == '\'' || next == '!')) {
        i++;
      }
    }
    return -1;
  }

  /** Readline's {@code history_no_expand_chars}, plus the end of the line. */
  private static boolean isNoExpandCharacter(char c) {
    return c == 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '=';
  }

  /**
   * Readline's {@code hist_string_extract_single_quoted}: the index of the closing quote, or the
   * end of the line. After {@code $} the quote is ANSI-C style and a backslash escapes.
   */
  private static int closingSingleQuote(
      String input, int from, int lineEnd, boolean backslashEscapes) {
    int i = from;
    while (i < lineEnd && input.charAt(i) != '\'') {
      if (backslashEscapes && input.charAt(i) == '\\' && i + 1 < lineEnd) {
        i++;
      }
      i++;
    }
    return i;
  }
}
