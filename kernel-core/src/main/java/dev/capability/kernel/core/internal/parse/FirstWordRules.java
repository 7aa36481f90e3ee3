package dev.capability.kernel.core.internal.parse;

/**
 * Rules bash applies only to the word in command position: reserved words and variable
 * assignments. They are decided on the raw text of the word, before quote removal, exactly as
 * bash does: {@code if} is reserved but {@code 'if'}, {@code \if} and {@code i''f} name an
 * ordinary program; {@code a=b} is an assignment but {@code 'a'=b} and {@code a\=b} are not.
 */
final class FirstWordRules {
  /** Bash's reserved words, recognised only when unquoted and delimited like a whole word. */
  private static final String[] RESERVED_WORDS = {
    "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
    "in", "select", "function", "time", "coproc", "{", "}", "[[", "]]", "!"
  };

  private static final int LONGEST_RESERVED_WORD = "function".length();

  private FirstWordRules() {}

  /**
   * The construct refused for the first word starting at {@code start}, or {@code null} when the
   * first-word rules allow it (the word is then scanned like every other).
   */
  static Construct refusalAt(String input, int start) {
    if (isReservedWord(input, start)) {
      return Construct.RESERVED_WORD;
    }
    if (isAssignment(input, start)) {
      return Construct.ASSIGNMENT;
    }
    return null;
  }

  private static boolean isReservedWord(String input, int start) {
    int end = start;
    while (end < input.length() && end - start <= LONGEST_RESERVED_WORD
        && !endsToken(input.charAt(end))) {
      end++;
    }
    int length = end - start;
    for (String word : RESERVED_WORDS) {
      if (word.length() == length && input.regionMatches(start, word, 0, length)) {
        return true;
      }
    }
    return false;
  }

  /** Blanks, newline and the metacharacters that end a token in bash's lexer. */
  private static boolean endsToken(char c) {
    switch (c) {
      case ' ': case '\t': case '\n':
      case '|': case '&': case ';': case '<': case '>': case '(': case ')':
        return true;
      default:
        return false;
    }
  }

  /**
   * Bash's {@code assignment()} test on the raw word: a name of unquoted letters, digits and
   * underscores not starting with a digit, then {@code =}, {@code +=} or a subscript
   * {@code [...]} followed by {@code =} or {@code +=}. Bash applies the same test to every
   * argument when it decides where a tilde expands.
   */
  static boolean isAssignment(String input, int start) {
    if (!isNameStart(input.charAt(start))) {
      return false;
    }
    for (int i = start + 1; i < input.length(); i++) {
      char c = input.charAt(i);
      if (c == '=') {
        return true;
      }
      if (c == '+') {
        return isAt(input, i + 1, '=');
      }
      if (c == '[') {
        return isSubscriptAssignment(input, i);
      }
      if (!isNameStart(c) && !(c >= '0' && c <= '9')) {
        return false;
      }
    }
    return false;
  }

  /**
   * Whether the subscript opened at {@code open} is closed and followed by {@code =} or
   * {@code +=}. The subscript itself is refused as a glob anyway; this only decides whether the
   * word is reported as the assignment it is.
   */
  private static boolean isSubscriptAssignment(String input, int open) {
    int depth = 0;
    for (int i = open; i < input.length(); i++) {
      char c = input.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']' && --depth == 0) {
        return isAt(input, i + 1, '=') || (isAt(input, i + 1, '+') && isAt(input, i + 2, '='));
      }
    }
    return false;
  }

  private static boolean isNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  private static boolean isAt(String input, int index, char expected) {
    return index < input.length() && input.charAt(index) == expected;
  }
}
