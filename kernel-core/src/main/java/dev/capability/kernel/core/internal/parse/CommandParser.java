package dev.capability.kernel.core.internal.parse;

import dev.capability.kernel.api.ShellSyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Splits a command string into argv without ever starting a shell.
 *
 * <p>The accepted language is the part of bash where the shell does nothing but split words and
 * remove quotes: for every input this class accepts, the argv is exactly what bash would pass to
 * {@code execve} for the same line. Everything else a shell would interpret (operators,
 * expansions, globs, reserved words, assignments, comments, history expansion) is refused with a
 * {@link ShellSyntaxException} naming the construct, its offset and an escaped rendering of the
 * input. The rules and the table of constructs are in {@code docs/parser.md}.
 *
 * <p>The characters are read once, left to right, and the refused construct with the lowest offset
 * is reported (an unclosed quote counts from its opening quote). There is no size or complexity
 * limit. An instance lives for one call and is never shared.
 */
public final class CommandParser {
  private final String input;
  private final int length;
  private final List<String> argv = new ArrayList<>();
  /** Created only for words with quotes or escapes; plain words are substrings of the input. */
  private StringBuilder word;
  /** {@link HistoryExpansion#singleQuotesHonouredBefore}, computed at the first single-quoted '!'. */
  private int singleQuotesHonouredBefore = -1;

  private CommandParser(String input) {
    this.input = input;
    this.length = input.length();
  }

  /**
   * The argv for {@code input}.
   *
   * @return an unmodifiable list with at least one element, whose first element is not empty
   * @throws ShellSyntaxException if the input contains anything a shell would interpret beyond
   *     splitting words and removing quotes, or characters that are refused everywhere
   */
  public static List<String> split(String input) {
    Objects.requireNonNull(input, "input");
    return new CommandParser(input).words();
  }

  private List<String> words() {
    int start = skipBlanks(0);
    if (start == length) {
      throw Construct.EMPTY_INPUT.refusal(input, 0);
    }
    Construct firstWordRefusal = FirstWordRules.refusalAt(input, start);
    if (firstWordRefusal != null) {
      throw firstWordRefusal.refusal(input, start);
    }
    int i = skipBlanks(word(start));
    if (argv.get(0).isEmpty()) {
      throw Construct.EMPTY_COMMAND_NAME.refusal(input, start);
    }
    while (i < length) {
      i = skipBlanks(word(i));
    }
    return Collections.unmodifiableList(argv);
  }

  private int skipBlanks(int from) {
    int i = from;
    while (i < length && isBlank(input.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  /**
   * Scans one word starting at {@code start} (not a blank), adds it to argv and returns the index
   * just after it. Literal text is copied in runs: {@code runStart} marks the first character not
   * yet copied, and a word without quotes or escapes is taken as one substring at the end.
   */
  private int word(int start) {
    boolean assignmentLike = FirstWordRules.isAssignment(input, start);
    boolean inBuilder = false;
    boolean afterUnquotedEqualsOrColon = false;
    int runStart = start;
    int i = start;
    while (i < length) {
      char c = input.charAt(i);
      switch (c) {
        case ' ':
        case '\t':
          return endWord(start, runStart, i, inBuilder);
        case '\'':
          inBuilder = copyRunToWord(inBuilder, runStart, i);
          i = singleQuoted(i);
          runStart = i;
          afterUnquotedEqualsOrColon = false;
          continue;
        case '"':
          inBuilder = copyRunToWord(inBuilder, runStart, i);
          i = doubleQuoted(i);
          runStart = i;
          afterUnquotedEqualsOrColon = false;
          continue;
        case '\\':
          inBuilder = copyRunToWord(inBuilder, runStart, i);
          checkEscapedOutsideQuotes(i);
          // The escaped character starts the next literal run.
          runStart = i + 1;
          i += 2;
          afterUnquotedEqualsOrColon = false;
          continue;
        case '\n':
          throw Construct.NEWLINE.refusal(input, i);
        case '|':
          throw (isAt(i + 1, '|') ? Construct.OR_LIST : Construct.PIPE).refusal(input, i);
        case '&':
          throw ampersand(i).refusal(input, i);
        case ';':
          throw Construct.COMMAND_SEPARATOR.refusal(input, i);
        case '<':
        case '>':
          throw (isAt(i + 1, '(') ? Construct.PROCESS_SUBSTITUTION : Construct.REDIRECTION)
              .refusal(input, i);
        case '(':
        case ')':
          throw Construct.SUBSHELL.refusal(input, i);
        case '$':
          throw dollar(i, false).refusal(input, i);
        case '`':
          throw Construct.COMMAND_SUBSTITUTION.refusal(input, i);
        case '*':
        case '?':
        case '[':
          // A ']' without its '[' matches nothing and stays literal.
          throw Construct.GLOB.refusal(input, i);
        case '{':
          if (couldBraceExpand(i)) {
            throw Construct.BRACE.refusal(input, i);
          }
          break;
        case '#':
          // Bash starts a comment only where a token starts; "a#b" and "''#" are plain words.
          if (i == start) {
            throw Construct.COMMENT.refusal(input, i);
          }
          break;
        case '~':
          // Bash expands a tilde at the very start of the raw word, or in a word that looks like
          // an assignment (also as an argument: "a=~") right after its first unquoted '=' or an
          // unquoted ':'. After any later '=' too is refused, which is stricter than bash.
          if (i == start || (assignmentLike && afterUnquotedEqualsOrColon)) {
            throw Construct.TILDE_EXPANSION.refusal(input, i);
          }
          break;
        case '!':
        case '^':
          if (HistoryExpansion.couldExpandAt(input, i)) {
            throw Construct.HISTORY_EXPANSION.refusal(input, i);
          }
          break;
        default:
          if (c < 0x20 || c >= 0x7F) {
            Construct refused = CharacterPolicy.refusalAt(input, i);
            if (refused != null) {
              throw refused.refusal(input, i);
            }
          }
          break;
      }
      afterUnquotedEqualsOrColon = c == '=' || c == ':';
      i++;
    }
    return endWord(start, runStart, i, inBuilder);
  }

  /**
   * Whether bash could brace-expand from the unquoted {@code '{'} at {@code open}: an unquoted
   * {@code '}'} follows in the same word and a {@code ','} or {@code ".."} stands between them.
   * Bash also needs them unquoted and the sequence well formed, so this is stricter; without
   * them ({@code {}}, {@code @{u}}, {@code {a}}) bash leaves the braces literal.
   */
  private boolean couldBraceExpand(int open) {
    int lastClose = -1;
    for (int i = open + 1; i < length; i++) {
      char c = input.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '\'') {
        i = input.indexOf('\'', i + 1);
        if (i < 0) {
          break;
        }
      } else if (c == '"') {
        i = closingDoubleQuote(i);
        if (i < 0) {
          break;
        }
      } else if (c == '}') {
        lastClose = i;
      } else if (isBlank(c) || c == '\n' || "|&;<>()".indexOf(c) >= 0) {
        break;
      }
    }
    if (lastClose < 0) {
      return false;
    }
    String between = input.substring(open + 1, lastClose);
    return between.indexOf(',') >= 0 || between.contains("..");
  }

  /** The index of the quote closing the double quote opened at {@code open}, or -1. */
  private int closingDoubleQuote(int open) {
    for (int i = open + 1; i < length; i++) {
      char c = input.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '"') {
        return i;
      }
    }
    return -1;
  }

  /** Outside quotes a backslash makes the next character literal, whatever it is. */
  private void checkEscapedOutsideQuotes(int backslash) {
    int escaped = backslash + 1;
    if (escaped == length) {
      throw Construct.DANGLING_BACKSLASH.refusal(input, backslash);
    }
    char c = input.charAt(escaped);
    if (c == '\n') {
      throw Construct.LINE_CONTINUATION.refusal(input, backslash);
    }
    if ((c < 0x20 && c != '\t') || c >= 0x7F) {
      Construct refused = CharacterPolicy.refusalAt(input, escaped);
      if (refused != null) {
        throw refused.refusal(input, escaped);
      }
    }
  }

  /**
   * Copies the literal run {@code [runStart, at)} into the word builder, first resetting the
   * builder if this word has not used it yet. Returns {@code true}: the word is now built in the
   * builder rather than taken as a substring.
   */
  private boolean copyRunToWord(boolean wordInBuilder, int runStart, int at) {
    if (!wordInBuilder) {
      if (word == null) {
        word = new StringBuilder(32);
      } else {
        word.setLength(0);
      }
    }
    word.append(input, runStart, at);
    return true;
  }

  private int endWord(int start, int runStart, int end, boolean inBuilder) {
    if (inBuilder) {
      word.append(input, runStart, end);
      argv.add(word.toString());
    } else {
      argv.add(input.substring(start, end));
    }
    return end;
  }

  /** Appends the text inside the single quote opened at {@code open}; returns the index after. */
  private int singleQuoted(int open) {
    for (int i = open + 1; i < length; i++) {
      char c = input.charAt(i);
      if (c == '\'') {
        word.append(input, open + 1, i);
        return i + 1;
      }
      if ((c == '!' || c == '^') && HistoryExpansion.couldExpandAt(input, i)
          && !historyExpansionHonoursSingleQuotesAt(i)) {
        throw refusalInsideSingleQuotes(Construct.HISTORY_EXPANSION, i, open);
      }
      if ((c < 0x20 && c != '\t' && c != '\n') || c >= 0x7F) {
        Construct refused = CharacterPolicy.refusalAt(input, i);
        if (refused != null) {
          throw refusalInsideSingleQuotes(refused, i, open);
        }
      }
    }
    throw Construct.UNTERMINATED_SINGLE_QUOTE.refusal(input, open);
  }

  /**
   * History expansion honours the shell's single quotes only on the first line and only before the
   * first double quote or backslash; elsewhere its idea of quoting may differ from the shell's.
   */
  private boolean historyExpansionHonoursSingleQuotesAt(int index) {
    if (singleQuotesHonouredBefore < 0) {
      singleQuotesHonouredBefore = HistoryExpansion.singleQuotesHonouredBefore(input);
    }
    return index < singleQuotesHonouredBefore;
  }

  /**
   * Appends the text inside the double quote opened at {@code open}; returns the index after it.
   * A backslash is removed only before {@code $ ` " \}; before anything else it stays, as in bash.
   */
  private int doubleQuoted(int open) {
    int runStart = open + 1;
    int i = open + 1;
    while (i < length) {
      char c = input.charAt(i);
      switch (c) {
        case '"':
          word.append(input, runStart, i);
          return i + 1;
        case '\\':
          if (i + 1 == length) {
            throw Construct.UNTERMINATED_DOUBLE_QUOTE.refusal(input, open);
          }
          switch (input.charAt(i + 1)) {
            case '$':
            case '`':
            case '"':
            case '\\':
              word.append(input, runStart, i);
              runStart = i + 1;
              i += 2;
              continue;
            case '\n':
              throw refusalInsideDoubleQuotes(Construct.LINE_CONTINUATION, i, open);
            default:
              // A literal backslash; the next character is judged on its own.
              i++;
              continue;
          }
        case '$':
          throw refusalInsideDoubleQuotes(dollar(i, true), i, open);
        case '`':
          throw refusalInsideDoubleQuotes(Construct.COMMAND_SUBSTITUTION, i, open);
        case '!':
        case '^':
          if (HistoryExpansion.couldExpandAt(input, i)) {
            throw refusalInsideDoubleQuotes(Construct.HISTORY_EXPANSION, i, open);
          }
          break;
        default:
          if ((c < 0x20 && c != '\t' && c != '\n') || c >= 0x7F) {
            Construct refused = CharacterPolicy.refusalAt(input, i);
            if (refused != null) {
              throw refusalInsideDoubleQuotes(refused, i, open);
            }
          }
          break;
      }
      i++;
    }
    throw Construct.UNTERMINATED_DOUBLE_QUOTE.refusal(input, open);
  }

  /**
   * A refusal inside quotes that are never closed is reported as the unterminated quote, which
   * starts earlier: the parser always reports the refused construct with the lowest offset.
   */
  private ShellSyntaxException refusalInsideSingleQuotes(Construct refused, int at, int open) {
    if (input.indexOf('\'', at) < 0) {
      return Construct.UNTERMINATED_SINGLE_QUOTE.refusal(input, open);
    }
    return refused.refusal(input, at);
  }

  private ShellSyntaxException refusalInsideDoubleQuotes(Construct refused, int at, int open) {
    for (int i = at; i < length; i++) {
      char c = input.charAt(i);
      if (c == '"') {
        return refused.refusal(input, at);
      }
      if (c == '\\') {
        i++;
      }
    }
    return Construct.UNTERMINATED_DOUBLE_QUOTE.refusal(input, open);
  }

  private Construct ampersand(int at) {
    if (isAt(at + 1, '&')) {
      return Construct.AND_LIST;
    }
    return isAt(at + 1, '>') ? Construct.REDIRECTION : Construct.BACKGROUND;
  }

  /** Names what an unescaped {@code $} at {@code at} would start. */
  private Construct dollar(int at, boolean insideDoubleQuotes) {
    if (at + 1 == length) {
      return Construct.PARAMETER_EXPANSION;
    }
    switch (input.charAt(at + 1)) {
      case '(':
        return isAt(at + 2, '(') ? Construct.ARITHMETIC_EXPANSION : Construct.COMMAND_SUBSTITUTION;
      case '[':
        return Construct.ARITHMETIC_EXPANSION;
      case '\'':
        return insideDoubleQuotes ? Construct.PARAMETER_EXPANSION : Construct.ANSI_C_QUOTE;
      case '"':
        return insideDoubleQuotes ? Construct.PARAMETER_EXPANSION : Construct.LOCALE_QUOTE;
      default:
        return Construct.PARAMETER_EXPANSION;
    }
  }

  private boolean isAt(int index, char expected) {
    return index < length && input.charAt(index) == expected;
  }
}
