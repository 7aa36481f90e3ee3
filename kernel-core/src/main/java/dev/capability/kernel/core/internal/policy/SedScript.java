package dev.capability.kernel.core.internal.policy;

import java.util.Optional;

/**
 * Decides whether a sed script only selects and prints ({@code ValueKind.SED_SCRIPT}). The
 * script is parsed as GNU sed's {@code compile.c} reads it, command by command, so that a
 * command boundary, a custom delimiter or an escaped delimiter can never hide a command that
 * runs a program or touches a file ({@code e}, {@code r}, {@code R}, {@code w}, {@code W}, the
 * {@code e} and {@code w} flags of {@code s}). Whatever this parser does not know is refused.
 *
 * <p>Beyond GNU sed, it refuses: non-ASCII (a multibyte locale could read a trail byte as a
 * delimiter), newlines and comments (one script separator, {@code ;}), letters, digits,
 * {@code \}, {@code [} and {@code ]} as delimiters, and a delimiter or newline inside a bracket
 * expression of a regex (older GNU sed ends the regex there, newer GNU sed does not).
 */
final class SedScript {

  /** Commands without argument that only select, print or edit the pattern and hold spaces. */
  private static final String PLAIN_COMMANDS = "pP=dDnNgGhHxz";
  /** Commands taking an optional decimal number: line wrap length or exit code. */
  private static final String NUMBERED_COMMANDS = "lqQ";
  /** Flags of {@code s} that neither run nor write anything; digits are allowed too. */
  private static final String SUBSTITUTE_FLAGS = "gpiImM";
  /** Flags that may follow a regex address. */
  private static final String ADDRESS_FLAGS = "IM";

  private final String text;
  private int pos;
  private int openBlocks;

  private SedScript(String text) {
    this.text = text;
  }

  /** Why {@code script} is not a select-and-print sed script, or empty when it is one. */
  static Optional<String> problem(String script) {
    for (int i = 0; i < script.length(); i++) {
      char c = script.charAt(i);
      if (c < 0x20 && c != '\t' || c >= 0x7f) {
        return Optional.of(String.format("is not a sed script of printable ASCII: U+%04X at index %d", (int) c, i));
      }
    }
    try {
      new SedScript(script).parse();
      return Optional.empty();
    } catch (Unparsable e) {
      return Optional.of("is not an allowed sed script: " + e.getMessage());
    }
  }

  /** Stops the parse: the script is refused. No stack trace, it is an answer, not a failure. */
  private static final class Unparsable extends RuntimeException {
    Unparsable(String message) {
      super(message, null, false, false);
    }
  }

  private Unparsable refuse(int at, String why) {
    return new Unparsable(why + " at index " + at);
  }

  private void parse() {
    while (true) {
      while (pos < text.length() && (isBlank(text.charAt(pos)) || text.charAt(pos) == ';')) {
        pos++;
      }
      if (pos == text.length()) {
        break;
      }
      command();
    }
    if (openBlocks > 0) {
      throw refuse(pos, "a { is not closed");
    }
  }

  private void command() {
    int start = pos;
    boolean addressed = address(false);
    if (addressed) {
      skipBlanks();
      if (peek() == ',') {
        pos++;
        skipBlanks();
        if (!address(true)) {
          throw refuse(pos, "a , needs a second address");
        }
      }
    }
    skipBlanks();
    boolean negated = false;
    if (peek() == '!') {
      negated = true;
      pos++;
      skipBlanks();
      if (peek() == '!') {
        throw refuse(pos, "more than one !");
      }
    }
    if (pos == text.length()) {
      throw refuse(pos, "a command is missing");
    }
    int at = pos;
    char command = text.charAt(pos++);
    if (command == '{') {
      openBlocks++;
    } else if (command == '}') {
      if (addressed || negated || openBlocks == 0) {
        throw refuse(at, openBlocks == 0 ? "a } closes no {" : "a } takes no address and no !");
      }
      openBlocks--;
      endOfCommand();
    } else if (PLAIN_COMMANDS.indexOf(command) >= 0) {
      endOfCommand();
    } else if (NUMBERED_COMMANDS.indexOf(command) >= 0) {
      skipBlanks();
      skipDigits();
      endOfCommand();
    } else if (command == 's') {
      char delimiter = delimiter();
      delimited(delimiter, true);
      delimited(delimiter, false);
      // GNU sed allows blanks between the flags.
      while (pos < text.length() && (SUBSTITUTE_FLAGS.indexOf(peek()) >= 0 || isDigit(peek()) || isBlank(peek()))) {
        pos++;
      }
      if (peek() == 'e' || peek() == 'w') {
        throw refuse(pos, "the flag " + peek() + " of s is not allowed: " + (peek() == 'e' ? "it runs a program" : "it writes a file"));
      }
      endOfCommand();
    } else if (command == 'y') {
      char delimiter = delimiter();
      delimited(delimiter, false);
      delimited(delimiter, false);
      endOfCommand();
    } else {
      throw refuse(at, "the command " + Printable.quote(String.valueOf(command)) + " is not allowed" + why(command)
          + " (command starting at index " + start + ")");
    }
  }

  private static String why(char command) {
    return switch (command) {
      case 'e' -> ": it runs a program";
      case 'r', 'R' -> ": it reads a file";
      case 'w', 'W' -> ": it writes a file";
      case 'a', 'i', 'c' -> ": text commands are not supported";
      case ':', 'b', 't', 'T' -> ": labels and branches are not supported";
      case '#' -> ": comments are not supported";
      default -> "";
    };
  }

  /** Reads an address if one starts here; {@code second} allows the {@code +N} and {@code ~N} forms. */
  private boolean address(boolean second) {
    char c = peek();
    if (c == '/' || c == '\\') {
      pos++;
      char delimiter = c == '/' ? '/' : delimiter();
      delimited(delimiter, true);
      while (true) {
        skipBlanks();
        if (ADDRESS_FLAGS.indexOf(peek()) < 0) {
          return true;
        }
        pos++;
      }
    }
    if (isDigit(c)) {
      skipDigits();
      skipBlanks();
      if (peek() == '~') {
        pos++;
        skipBlanks();
        requireDigits();
      }
      return true;
    }
    if (second && (c == '+' || c == '~')) {
      pos++;
      skipBlanks();
      requireDigits();
      return true;
    }
    if (c == '$') {
      pos++;
      return true;
    }
    return false;
  }

  private char delimiter() {
    if (pos == text.length()) {
      throw refuse(pos, "a delimiter is missing");
    }
    char delimiter = text.charAt(pos);
    if (delimiter <= ' ' || delimiter >= 0x7f || Character.isLetterOrDigit(delimiter) || "\\[]".indexOf(delimiter) >= 0) {
      throw refuse(pos, "the delimiter " + Printable.quote(String.valueOf(delimiter))
          + " is not allowed; use a punctuation character other than \\, [ and ]");
    }
    pos++;
    return delimiter;
  }

  /**
   * Reads up to and over the closing {@code delimiter}, as GNU sed's {@code match_slash}: a
   * backslash takes the next character with it, the first other {@code delimiter} ends. In a
   * regex, bracket expressions are tracked too and must not hold the delimiter.
   */
  private void delimited(char delimiter, boolean regex) {
    int start = pos;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == delimiter) {
        pos++;
        return;
      }
      if (c == '\\') {
        if (pos + 1 == text.length()) {
          break;
        }
        pos += 2;
      } else if (c == '[' && regex) {
        bracket(delimiter);
      } else {
        pos++;
      }
    }
    throw refuse(start, "a regex, replacement or transliteration is not closed with " + Printable.quote(String.valueOf(delimiter)));
  }

  /**
   * Reads a bracket expression from its {@code [} over its {@code ]}, as GNU sed's
   * {@code snarf_char_class} does, including its reading of {@code [:class:]},
   * {@code [.symbol.]} and {@code [=equivalence=]}. The delimiter is refused anywhere inside:
   * GNU sed 4.9 reads it there as a literal, older versions as the end of the regex.
   */
  private void bracket(char delimiter) {
    int start = pos;
    pos++;
    if (peek() == '^') {
      bracketCharacter(delimiter);
    }
    if (peek() == ']') {
      bracketCharacter(delimiter);
    }
    // 0: plain, 1: after an inner [, 2: inside [: [. or [=, 3: after its closing : . or =
    int state = 0;
    char inner = 0;
    while (pos < text.length()) {
      char c = bracketCharacter(delimiter);
      if ((c == '.' || c == ':' || c == '=') && state == 1) {
        inner = c;
        state = 2;
        continue;
      }
      if ((c == '.' || c == ':' || c == '=') && state == 2 && c == inner) {
        state = 3;
        continue;
      }
      if (c == '[') {
        if (state == 0) {
          state = 1;
        }
        continue;
      }
      if (c == ']') {
        if (state == 0 || state == 1) {
          return;
        }
        if (state == 3) {
          state = 0;
        }
      }
      state &= ~1;
    }
    throw refuse(start, "a bracket expression is not closed");
  }

  private char bracketCharacter(char delimiter) {
    char c = text.charAt(pos);
    if (c == delimiter) {
      throw refuse(pos, "the delimiter " + Printable.quote(String.valueOf(delimiter))
          + " inside a bracket expression is read as a literal by newer GNU sed and as the end by older versions");
    }
    pos++;
    return c;
  }

  private void endOfCommand() {
    skipBlanks();
    if (pos == text.length() || peek() == '}') {
      return;
    }
    if (peek() == ';') {
      pos++;
      return;
    }
    throw refuse(pos, "unexpected " + Printable.quote(String.valueOf(peek())) + " after a command");
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipBlanks() {
    while (pos < text.length() && isBlank(text.charAt(pos))) {
      pos++;
    }
  }

  private void skipDigits() {
    while (pos < text.length() && isDigit(text.charAt(pos))) {
      pos++;
    }
  }

  private void requireDigits() {
    if (!isDigit(peek())) {
      throw refuse(pos, "a number is missing");
    }
    skipDigits();
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
