package dev.capability.kernel.core.internal.parse;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/**
 * Generators of command lines built from the pieces shells care about: quotes, backslashes,
 * blanks, operators, {@code = ~ : # ! ^}, newlines, reserved words, characters refused everywhere
 * and visible Unicode look-alikes of shell syntax.
 */
final class ShellInputs {
  private static final List<String> ORDINARY = List.of(
      "a", "b", "x1", "-", "_", ".", ",", "+", "%", "@", "/", "0",
      "\u00e9", "\u4e00", "\ud83d\ude00", // é, a CJK ideograph, an emoji (surrogate pair)
      "\uff1b", "\uff04", "\uff5c", "\uff0a", "\u01c3"); // fullwidth ; $ | *, and a '!' look-alike
  private static final List<String> BLANKS = List.of(" ", "\t", "  ");
  private static final List<String> QUOTING = List.of("'", "\"", "\\", "''", "\"\"");
  private static final List<String> WORD_SENSITIVE = List.of(
      "=", "~", ":", "#", "!", "^", "+=", "!!", "!a", "\\!", "!'");
  /** Pieces bash expands depending on where they stand: tildes in assignment-like words, globs. */
  private static final List<String> EXPANSION_TRIGGERS = List.of(
      "a=~", "x1=a:~", "b+=~/x", "a=", "_=", "PATH=", "a=b:", "~", ":~", "#", "{a,b}", "*", "a?",
      "{}", "@{u}", "]", "a]", "{a}", "{.}", "{1..3}", "{a..c}", "x{a,b}", "{,}", "}", "--format=%h:~", "-x=~", "a=b:~");
  private static final List<String> OPERATORS = List.of(
      "|", "&", ";", "<", ">", "(", ")", "$", "`", "*", "?", "[", "]", "{", "}", "\n",
      "||", "&&", "$(", "${", "$'", "$\"", "2>");
  private static final List<String> RESERVED_WORDS = List.of(
      "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
      "in", "select", "function", "time", "coproc", "{", "}", "[[", "]]", "!");
  private static final List<String> REFUSED_EVERYWHERE = List.of(
      "\u0000", "\r", "\u0007", "\u001b", "\u007f", "\u0085", "\u009b", "\u00a0", "\u200b",
      "\u202e", "\u2066", "\u3000", "\ufeff", "\ud800", "\udc00", "\udb40\udc41");

  private ShellInputs() {}

  /** Any sequence of the pieces, most of it refused: exercises every refusal and its offset. */
  static Arbitrary<ShellInput> tokenSoup() {
    return Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.of(ORDINARY)),
            Tuple.of(6, Arbitraries.of(BLANKS)),
            Tuple.of(5, Arbitraries.of(QUOTING)),
            Tuple.of(3, Arbitraries.of(WORD_SENSITIVE)),
            Tuple.of(2, Arbitraries.of(OPERATORS)),
            Tuple.of(2, Arbitraries.of(RESERVED_WORDS)),
            Tuple.of(1, Arbitraries.of(REFUSED_EVERYWHERE)))
        .list().ofMinSize(1).ofMaxSize(14)
        .map(pieces -> new ShellInput(String.join("", pieces)));
  }

  /**
   * Words made of plain text, single- and double-quoted text and backslash escapes, whose quoted
   * parts hold every kind of piece: most of these are accepted, so bash gets plenty to compare.
   */
  static Arbitrary<ShellInput> quotedWords() {
    Arbitrary<String> word = segment().list().ofMinSize(1).ofMaxSize(4)
        .map(segments -> String.join("", segments));
    Arbitrary<String> separator = Arbitraries.of(" ", "\t", "  ", " \t");
    Arbitrary<String> edge = Arbitraries.of("", "", "", " ", "\t");
    return word.list().ofMinSize(1).ofMaxSize(6)
        .flatMap(words -> separator.list().ofSize(words.size() - 1)
            .flatMap(separators -> edge.tuple2().map(edges -> {
              StringBuilder line = new StringBuilder(edges.get1());
              for (int i = 0; i < words.size(); i++) {
                if (i > 0) {
                  line.append(separators.get(i - 1));
                }
                line.append(words.get(i));
              }
              return new ShellInput(line.append(edges.get2()).toString());
            })));
  }

  /**
   * First words that are, or nearly are, reserved words and assignments, quoted and unquoted,
   * optionally followed by more words.
   */
  static Arbitrary<ShellInput> firstWords() {
    Arbitrary<String> piece = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.of(RESERVED_WORDS)),
        Tuple.of(4, Arbitraries.of("a", "b", "_", "x1", "Ab", "1", "-", "\u00e9", "\uff1d")),
        Tuple.of(4, Arbitraries.of("=", "+=", "+", "[1]", ":", "~", "#", "!", "^", ".")),
        Tuple.of(4, Arbitraries.of("'", "\"", "\\", "''", "\"\"", "'if'", "\"do\"", "'='", "\\=")));
    Arbitrary<String> first = piece.list().ofMinSize(1).ofMaxSize(3)
        .map(pieces -> String.join("", pieces));
    Arbitrary<String> rest = Arbitraries.oneOf(
        Arbitraries.just(""),
        quotedWords().map(more -> " " + more.text()));
    return first.flatMap(word -> rest.map(more -> new ShellInput(word + more)));
  }

  /**
   * Words in which {@code !} and {@code ^} stand in every quoting context: unquoted, single-quoted,
   * double-quoted, after a backslash outside and inside double quotes, and in {@code $'...'}; mixed
   * with the double quotes, backslashes and newlines that decide how readline pairs quotes. Plenty
   * of single-quoted {@code !} is accepted, so bash with history expansion gets it to compare.
   */
  static Arbitrary<ShellInput> exclamationsInEveryQuotingContext() {
    Arbitrary<String> bang = Arbitraries.of("!", "!!", "!x", "!-1", "!$", "!?a?", "!#", "!\"",
        "!'", "a!", "!=", "! ", "^", "^a^b");
    Arbitrary<String> inSingleQuotes = Arbitraries.frequencyOf(
            Tuple.of(6, bang),
            Tuple.of(4, Arbitraries.of(ORDINARY)),
            Tuple.of(1, Arbitraries.of("\"", "\\", "\n", " ", "$", "\\'")))
        .list().ofMinSize(1).ofMaxSize(4)
        .map(pieces -> "'" + String.join("", pieces).replace("'", "") + "'");
    Arbitrary<String> piece = Arbitraries.frequencyOf(
        Tuple.of(8, inSingleQuotes),
        Tuple.of(2, bang.map(text -> "\"" + text.replace("\"", "") + "\"")),
        Tuple.of(2, bang),
        Tuple.of(2, Arbitraries.of("\\!", "\\!x", "\"\\!x\"", "\\\\!x", "\\'!x'", "\\\"")),
        Tuple.of(1, bang.map(text -> "$'" + text.replace("'", "") + "'")),
        Tuple.of(3, Arbitraries.of(ORDINARY)),
        Tuple.of(2, Arbitraries.of("\"'\"", "\"a\"", "''", "\\\\")));
    Arbitrary<String> word = piece.list().ofMinSize(1).ofMaxSize(3)
        .map(pieces -> String.join("", pieces));
    return word.list().ofMinSize(1).ofMaxSize(4)
        .map(words -> new ShellInput("a " + String.join(" ", words)));
  }

  /**
   * Words built from braces, commas, {@code ..}, tildes after {@code = : +=}, lone brackets and
   * quotes, where bash expands some and leaves others literal: {@code {}}, {@code @{u}},
   * {@code --format=%h:~}, {@code a]} against {@code {a,b}}, {@code {1..3}}, {@code a=~}.
   */
  static Arbitrary<ShellInput> bracesTildesAndBrackets() {
    Arbitrary<String> piece = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.of("{", "}", "{}", ",", "..", ".")),
        Tuple.of(5, Arbitraries.of("a", "b", "1", "x_", "-", "--f", "%h", "@", "/")),
        Tuple.of(4, Arbitraries.of("~", "=", ":", "+=", "=~", ":~")),
        Tuple.of(2, Arbitraries.of("]", "a]")),
        Tuple.of(2, Arbitraries.of("'", "\"", "\\", "','", "'{'", "\"}\"", "\\{", "\\,")));
    Arbitrary<String> word = piece.list().ofMinSize(1).ofMaxSize(6).map(pieces -> String.join("", pieces));
    return word.list().ofMinSize(1).ofMaxSize(3).map(words -> new ShellInput("a " + String.join(" ", words)));
  }

  private static Arbitrary<String> segment() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, plainText()),
        Tuple.of(3, singleQuoted()),
        Tuple.of(3, doubleQuoted()),
        Tuple.of(2, escaped()));
  }

  private static Arbitrary<String> plainText() {
    return Arbitraries.frequencyOf(
            Tuple.of(12, Arbitraries.of(ORDINARY)),
            Tuple.of(3, Arbitraries.of(WORD_SENSITIVE)),
            Tuple.of(1, Arbitraries.of(EXPANSION_TRIGGERS)))
        .list().ofMinSize(1).ofMaxSize(4)
        .map(pieces -> String.join("", pieces));
  }

  /**
   * Characters that may appear inside quotes, where most of them lose their meaning. Characters
   * refused everywhere are left to {@link #tokenSoup()}, so that most quoted words are accepted.
   */
  private static Arbitrary<String> quotable() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.of(ORDINARY)),
        Tuple.of(3, Arbitraries.of(BLANKS)),
        Tuple.of(3, Arbitraries.of(WORD_SENSITIVE)),
        Tuple.of(3, Arbitraries.of(OPERATORS)),
        Tuple.of(2, Arbitraries.of(RESERVED_WORDS)));
  }

  private static Arbitrary<String> singleQuoted() {
    return Arbitraries.frequencyOf(
            Tuple.of(10, quotable()),
            Tuple.of(2, Arbitraries.of("\"", "\\", "\\\n")))
        .list().ofMaxSize(6)
        .map(pieces -> "'" + String.join("", pieces).replace("'", "") + "'");
  }

  private static Arbitrary<String> doubleQuoted() {
    Arbitrary<String> escape = Arbitraries.of(
        "\\$", "\\`", "\\\"", "\\\\", "\\!", "\\a", "\\'", "\\ ", "\\\t", "\\\u00e9", "\\\n",
        "\\~");
    Arbitrary<String> history = Arbitraries.of("!", "!a", "! ", "!=");
    return Arbitraries.frequencyOf(
            Tuple.of(30, quotable().filter(ShellInputs::isInertInDoubleQuotes)),
            Tuple.of(10, escape),
            Tuple.of(2, history),
            Tuple.of(3, Arbitraries.of("'", "'!a'", "'a'")),
            Tuple.of(1, Arbitraries.of("$", "`", "$(")))
        .list().ofMaxSize(6)
        .map(pieces -> "\"" + String.join("", pieces) + "\"");
  }

  private static Arbitrary<String> escaped() {
    return Arbitraries.frequencyOf(
            Tuple.of(10, quotable()),
            Tuple.of(2, Arbitraries.of("'", "\"", "\\")))
        .map(text -> "\\" + text.substring(0, Character.charCount(text.codePointAt(0))));
  }

  private static boolean isInertInDoubleQuotes(String text) {
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\' || c == '$' || c == '`' || c == '!') {
        return false;
      }
    }
    return true;
  }
}
