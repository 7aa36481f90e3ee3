package dev.capability.kernel.core.internal.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.kernel.api.ShellSyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CommandParserTest {

  /** Accepted inputs of {@link #accepted()}; the differential properties confirm them in bash. */
  static final List<String> ACCEPTED_EXAMPLES =
      accepted().map(arguments -> (String) arguments.get()[1]).toList();

  static Stream<Arguments> accepted() {
    return Stream.of(
        accepts("splits words on runs of spaces and tabs",
            "echo  a\t\tb \t c", "echo", "a", "b", "c"),
        accepts("ignores leading and trailing blanks",
            " \t echo a \t", "echo", "a"),
        accepts("keeps single-quoted text literally",
            "echo 'a b' '$HOME' '`id`' '\\' '\"'", "echo", "a b", "$HOME", "`id`", "\\", "\""),
        accepts("keeps every operator literal inside single quotes",
            "echo '| & ; < > ( ) * ? [ ] { } # ~ ! ^ = :'",
            "echo", "| & ; < > ( ) * ? [ ] { } # ~ ! ^ = :"),
        accepts("keeps newlines and tabs inside single quotes",
            "echo 'a\nb\tc'", "echo", "a\nb\tc"),
        accepts("keeps a backslash and newline inside single quotes",
            "echo 'a\\\nb'", "echo", "a\\\nb"),
        accepts("joins adjacent quoted and unquoted parts into one word",
            "echo a'b'\"c\"\\d", "echo", "abcd"),
        accepts("turns empty quotes into empty arguments",
            "echo '' \"\" a''", "echo", "", "", "a"),
        accepts("removes a backslash before $ ` \" and \\ inside double quotes",
            "echo \"\\$x \\` \\\" \\\\\"", "echo", "$x ` \" \\"),
        accepts("keeps a backslash before any other character inside double quotes",
            "echo \"\\a \\n \\' \\~ \\! \\\t\"", "echo", "\\a \\n \\' \\~ \\! \\\t"),
        accepts("keeps newlines and operators inside double quotes",
            "echo \"a\nb | c; d & e > f * g # h ~ i {j} 'k'\"",
            "echo", "a\nb | c; d & e > f * g # h ~ i {j} 'k'"),
        accepts("makes any character literal with a backslash outside quotes",
            "echo a\\ b \\| \\; \\& \\< \\> \\( \\) \\$x \\` \\* \\? \\[ \\] \\{ \\} \\# \\~ \\! \\' \\\" \\\\ \\=",
            "echo", "a b", "|", ";", "&", "<", ">", "(", ")", "$x", "`", "*", "?", "[", "]", "{", "}",
            "#", "~", "!", "'", "\"", "\\", "="),
        accepts("makes a tab literal with a backslash",
            "echo a\\\tb", "echo", "a\tb"),
        accepts("keeps a hash that does not start a word",
            "echo a#b ''# \\# \"#\"", "echo", "a#b", "#", "#", "#"),
        accepts("keeps a tilde that is neither at a word start nor after an unquoted = or :",
            "echo a~b \\~ '~' \"~\" ''~ a\\=~ a'='~ \"a:\"~ a\\:~",
            "echo", "a~b", "~", "~", "~", "~", "a=~", "a=~", "a:~", "a:~"),
        accepts("keeps a tilde after = or : in a word that is not an assignment",
            "git log --format=%h:~ a:~ -x=~ 1a=~ a-b=~ =~ a=\":\"~", "git", "log", "--format=%h:~", "a:~", "-x=~", "1a=~",
            "a-b=~", "=~", "a=:~"),
        accepts("keeps braces that do not expand: {}, @{u}, one item, no comma or ..",
            "find . -exec rm {} + x{}y @{u} {a} {.} } a} \"{\"a,b} {a,b\"}\"", "find", ".", "-exec", "rm", "{}", "+", "x{}y",
            "@{u}", "{a}", "{.}", "}", "a}", "{a,b}", "{a,b}"),
        accepts("keeps a closing bracket without its opening one",
            "echo ] a] x]y", "echo", "]", "a]", "x]y"),
        accepts("keeps an exclamation mark that history expansion leaves alone",
            "echo ! a! a!=b \"a! b\" \\!x \"\\!x\" 'a\\!b' \"wow\"\\!",
            "echo", "!", "a!", "a!=b", "a! b", "!x", "\\!x", "a\\!b", "wow!"),
        accepts("keeps a ! after a literal backslash, which history treats as escaped",
            "echo \\\\!x \"a\\\\!x\"", "echo", "\\!x", "a\\!x"),
        accepts("keeps a ! inside single quotes, where history expansion never looks",
            "cat '!important.txt'", "cat", "!important.txt"),
        accepts("keeps a shell escape of vim inside single quotes",
            "vim -c ':!id' README.md", "vim", "-c", ":!id", "README.md"),
        accepts("keeps every ! of several single-quoted words",
            "echo a'!!'b '!$' '!-1' '!'", "echo", "a!!b", "!$", "!-1", "!"),
        accepts("keeps a ! in single quotes that span lines, on the first line",
            "echo '!x\ny'", "echo", "!x\ny"),
        accepts("runs a single-quoted reserved word as a program",
            "'if' a", "if", "a"),
        accepts("runs a backslash-escaped reserved word as a program",
            "\\if a", "if", "a"),
        accepts("runs a reserved word with an empty quote inside as a program",
            "i''f a", "if", "a"),
        accepts("runs a double-quoted reserved word as a program",
            "\"then\" a", "then", "a"),
        accepts("runs a reserved word with trailing empty quotes as a program",
            "done\"\" a", "done", "a"),
        accepts("treats reserved words after the first word as arguments",
            "echo if then fi ! in time", "echo", "if", "then", "fi", "!", "in", "time"),
        accepts("treats words that merely begin like reserved words as ordinary",
            "iffy done.sh fi#", "iffy", "done.sh", "fi#"),
        accepts("runs a first word whose name part is quoted, which bash does not assign",
            "'a'=b c", "a=b", "c"),
        accepts("runs a first word whose equals sign is escaped",
            "a\\=b", "a=b"),
        accepts("runs a first word whose name starts with an escape",
            "\\a=b", "a=b"),
        accepts("runs a first word whose name starts with a digit",
            "1a=b", "1a=b"),
        accepts("runs a first word that starts with an equals sign",
            "=a", "=a"),
        accepts("runs a first word whose name holds a character names cannot have",
            "a-b=c a+b=c", "a-b=c", "a+b=c"),
        accepts("keeps assignment-like words after the first word",
            "env a=b c+=d _=x", "env", "a=b", "c+=d", "_=x"),
        accepts("keeps visible look-alikes of shell syntax as ordinary characters",
            "echo a\uff1bb \uff04HOME \uff5c \u01c3x \uff0a",
            "echo", "a\uff1bb", "\uff04HOME", "\uff5c", "\u01c3x", "\uff0a"),
        accepts("keeps non-ASCII letters and surrogate pairs, quoted or escaped",
            "echo \u00e9t\u00e9 \u4e00 \ud83d\ude00 '\ud83d\ude00' \\\ud83d\ude00 \"\\\ud83d\ude00\"",
            "echo", "\u00e9t\u00e9", "\u4e00", "\ud83d\ude00", "\ud83d\ude00", "\ud83d\ude00",
            "\\\ud83d\ude00"),
        accepts("keeps carets after the first character and lone equals signs",
            "echo a^b ^ = :", "echo", "a^b", "^", "=", ":"),
        accepts("passes a quoted or escaped dollar sign literally",
            "echo '$x' \\$y \"\\$z\" '$(id)'", "echo", "$x", "$y", "$z", "$(id)"),
        accepts("keeps each kind of quote inside the other",
            "echo '\"' \"'\"", "echo", "\"", "'"),
        accepts("keeps a first word that only contains a caret later",
            "a^b", "a^b"),
        accepts("keeps a caret after leading blanks, where history looks for none",
            "  ^a^b", "^a^b"),
        accepts("keeps a caret after a newline that is escaped inside double quotes",
            "echo \"a\\^b\"", "echo", "a\\^b"));
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        refuses("a pipe", "ls | wc", "pipe", 3),
        refuses("a pipe without blanks", "ls|wc", "pipe", 2),
        refuses("a pipe of both output streams", "ls |& wc", "pipe", 3),
        refuses("an or-list", "a || b", "or-list", 2),
        refuses("an and-list", "a && b", "and-list", 2),
        refuses("running in the background", "sleep 1 &", "background", 8),
        refuses("a command separator", "a; b", "command-separator", 1),
        refuses("a case terminator", "a ;; b", "command-separator", 2),
        refuses("an output redirection", "a > f", "redirection", 2),
        refuses("an input redirection", "a < f", "redirection", 2),
        refuses("a redirection of a numbered descriptor at the operator",
            "a 2>f", "redirection", 3),
        refuses("an appending redirection", "a >>f", "redirection", 2),
        refuses("a here-document", "a <<EOF", "redirection", 2),
        refuses("a here-string", "a <<<x", "redirection", 2),
        refuses("a clobbering redirection", "a >|f", "redirection", 2),
        refuses("a redirection of both output streams", "a &>f", "redirection", 2),
        refuses("an input process substitution", "diff <(a) b", "process-substitution", 5),
        refuses("an output process substitution", "tee >(a)", "process-substitution", 4),
        refuses("a subshell", "(a)", "subshell", 0),
        refuses("a parenthesis in an argument", "a (b)", "subshell", 2),
        refuses("a function definition", "f() x", "subshell", 1),
        refuses("a closing parenthesis", "a )", "subshell", 2),
        refuses("a variable", "echo $HOME", "parameter-expansion", 5),
        refuses("a braced variable", "echo ${HOME}", "parameter-expansion", 5),
        refuses("a dollar sign at the end of a word", "echo a$", "parameter-expansion", 6),
        refuses("a lone dollar sign", "echo $", "parameter-expansion", 5),
        refuses("a variable inside double quotes", "echo \"$HOME\"", "parameter-expansion", 6),
        refuses("a dollar sign before a closing double quote",
            "echo \"a$\"", "parameter-expansion", 7),
        refuses("a dollar and single quote inside double quotes",
            "echo \"$'x'\"", "parameter-expansion", 6),
        refuses("a command substitution", "echo $(id)", "command-substitution", 5),
        refuses("a backquote command substitution", "echo `id`", "command-substitution", 5),
        refuses("a command substitution inside double quotes",
            "echo \"$(id)\"", "command-substitution", 6),
        refuses("a backquote inside double quotes", "echo \"`id`\"", "command-substitution", 6),
        refuses("an arithmetic expansion", "echo $((1+1))", "arithmetic-expansion", 5),
        refuses("an old-style arithmetic expansion", "echo $[1+1]", "arithmetic-expansion", 5),
        refuses("an ANSI-C quote", "echo $'\\n'", "ansi-c-quote", 5),
        refuses("a locale quote", "echo $\"x\"", "locale-quote", 5),
        refuses("a star glob", "ls *.txt", "glob", 3),
        refuses("a question-mark glob", "ls a?", "glob", 4),
        refuses("a bracket glob", "ls [ab]", "glob", 3),
        refuses("a brace expansion", "echo {a,b}", "brace", 5),
        refuses("a brace expansion inside a word", "echo x{a,b}y", "brace", 6),
        refuses("a numeric sequence", "echo {1..3}", "brace", 5),
        refuses("a letter sequence", "echo {a..c}", "brace", 5),
        refuses("an empty alternative", "echo x{,}", "brace", 6),
        refuses("an expansion after a literal {}", "echo {}{a,b}", "brace", 5),
        refuses("an expansion with a quoted part", "echo {a,'b'}", "brace", 5),
        refuses("a comment after a command", "echo #x", "comment", 5),
        refuses("a comment as the whole input", "# x", "comment", 0),
        refuses("a comment after leading blanks", "  #", "comment", 2),
        refuses("a comment after arguments", "echo a #b", "comment", 7),
        refuses("a tilde alone", "cd ~", "tilde-expansion", 3),
        refuses("a tilde starting a path", "ls ~/x", "tilde-expansion", 3),
        refuses("a tilde naming a user", "ls ~root", "tilde-expansion", 3),
        refuses("a tilde after an unquoted equals sign", "echo a=~", "tilde-expansion", 7),
        refuses("a tilde after an unquoted colon", "echo PATH=/b:~/bin", "tilde-expansion", 13),
        refuses("a tilde after a colon in an assignment-like word", "echo a=b:~", "tilde-expansion", 9),
        refuses("a tilde after +=", "echo b+=~", "tilde-expansion", 8),
        refuses("a tilde after a colon that follows quoted text", "echo a=\"x\":~", "tilde-expansion", 11),
        refuses("a tilde after a later equals sign", "echo a=b=~", "tilde-expansion", 9),
        refuses("a history event", "echo !!", "history-expansion", 5),
        refuses("a history search", "echo !x", "history-expansion", 5),
        refuses("a history event inside a word", "echo a!b", "history-expansion", 6),
        refuses("a history event inside double quotes", "echo \"a!b\"", "history-expansion", 7),
        refuses("an exclamation mark before an opening quote",
            "echo !\"x\"", "history-expansion", 5),
        refuses("a history event before a closing double quote",
            "echo \"wow!\"", "history-expansion", 9),
        refuses("a history event in single quotes after a double quote, which older readline "
            + "pairs differently", "echo \"'\" '!x'", "history-expansion", 10),
        refuses("a history event in single quotes after a backslash anywhere before it",
            "echo \\a '!x'", "history-expansion", 9),
        refuses("a history event in single quotes on a line after the first",
            "echo 'a\n!x'", "history-expansion", 8),
        refuses("a history event in single quotes after a single-quoted newline",
            "echo 'a\nb' '!x'", "history-expansion", 12),
        refuses("a history event in ANSI-C quotes, which the parser refuses first",
            "echo $'!x'", "ansi-c-quote", 5),
        refuses("a history event in single quotes after an escaped backslash",
            "echo \\\\'!x'", "history-expansion", 8),
        refuses("a history event after a double-quoted backslash and a single quote",
            "echo \"\\\\\"'!x'", "history-expansion", 10),
        refuses("a history event on the second line of a double-quoted string",
            "echo \"a\n!x\"", "history-expansion", 8),
        refuses("a history event on a line that starts inside single quotes",
            "a \\\\'b' 'c\nd' !!x", "history-expansion", 14),
        refuses("a quick substitution", "^a^b", "history-expansion", 0),
        refuses("a quick substitution on a line that continues a single-quoted string",
            "echo 'a\n^b^c'", "history-expansion", 8),
        refuses("a quick substitution on a line that continues a double-quoted string",
            "echo \"a\n^b^c\"", "history-expansion", 8),
        refuses("a reserved word after leading blanks", "  if x", "reserved-word", 2),
        refuses("a reserved word followed by an operator", "if;", "reserved-word", 0),
        refuses("a reserved word followed by a newline", "then\nx", "reserved-word", 0),
        refuses("pipeline negation", "! a", "reserved-word", 0),
        refuses("a group command", "{ a; }", "reserved-word", 0),
        refuses("a conditional command", "[[ a ]]", "reserved-word", 0),
        refuses("timing a command", "time ls", "reserved-word", 0),
        refuses("an assignment", "a=b", "assignment", 0),
        refuses("an assignment before a command", "a=b ls", "assignment", 0),
        refuses("an empty assignment", "a= ls", "assignment", 0),
        refuses("an appending assignment", "A_1+=x ls", "assignment", 0),
        refuses("an assignment to underscore", "_=1", "assignment", 0),
        refuses("an array element assignment", "a[1]=x", "assignment", 0),
        refuses("an appending array element assignment", "a[1]+=x ls", "assignment", 0),
        refuses("an assignment to a name spelt like a reserved word", "fi=1", "assignment", 0),
        refuses("an assignment after leading blanks", "  a=b", "assignment", 2),
        refuses("an assignment of a quoted value", "a='b c' ls", "assignment", 0),
        refuses("a subscripted first word without assignment as a glob", "a[1] x", "glob", 1),
        refuses("an unterminated single quote", "echo 'abc", "unterminated-single-quote", 5),
        refuses("a lone single quote", "'", "unterminated-single-quote", 0),
        refuses("an unterminated double quote", "echo \"abc", "unterminated-double-quote", 5),
        refuses("a double quote closed only by an escaped quote",
            "echo \"a\\\"", "unterminated-double-quote", 5),
        refuses("a double quote ending in a backslash",
            "echo \"a\\", "unterminated-double-quote", 5),
        refuses("an unterminated single quote before a control character inside it",
            "echo 'a\u0000", "unterminated-single-quote", 5),
        refuses("an unterminated double quote before a variable inside it",
            "echo \"$x", "unterminated-double-quote", 5),
        refuses("an unterminated double quote before an invisible character inside it",
            "echo \"a\u200b", "unterminated-double-quote", 5),
        refuses("a control character inside closed single quotes",
            "echo 'a\u0000' b", "control-character", 7),
        refuses("an invisible character inside closed double quotes",
            "echo \"a\u200b\"", "invisible-character", 7),
        refuses("a dangling backslash", "echo a\\", "dangling-backslash", 6),
        refuses("a lone backslash", "\\", "dangling-backslash", 0),
        refuses("a trailing newline", "echo a\n", "newline", 6),
        refuses("a second command on a new line", "echo a\nrm x", "newline", 6),
        refuses("a newline alone", "\n", "newline", 0),
        refuses("a newline after a quoted word", "echo 'a'\n", "newline", 8),
        refuses("a line continuation", "echo a\\\nb", "line-continuation", 6),
        refuses("a line continuation inside double quotes",
            "echo \"a\\\nb\"", "line-continuation", 7),
        refuses("a NUL character", "echo a\u0000", "control-character", 6),
        refuses("a carriage return", "echo a\r", "control-character", 6),
        refuses("a terminal escape sequence", "echo \u001b[31m", "control-character", 5),
        refuses("a bell inside single quotes", "echo 'a\u0007'", "control-character", 7),
        refuses("a DEL character", "echo a\u007f", "control-character", 6),
        refuses("a C1 control sequence introducer", "echo a\u009b", "control-character", 6),
        refuses("an escaped control character", "echo \\\u0001", "control-character", 6),
        refuses("a no-break space between words", "echo\u00a0a", "non-ascii-whitespace", 4),
        refuses("a next-line character", "echo a\u0085", "non-ascii-whitespace", 6),
        refuses("an escaped no-break space", "echo \\\u00a0", "non-ascii-whitespace", 6),
        refuses("a zero-width space", "echo a\u200bb", "invisible-character", 6),
        refuses("a right-to-left override inside single quotes",
            "echo '\u202etxt.exe'", "invisible-character", 6),
        refuses("a tag character given as a surrogate pair",
            "echo a\udb40\udc41", "invisible-character", 6),
        refuses("a lone high surrogate", "echo \ud800", "lone-surrogate", 5),
        refuses("a lone low surrogate", "echo \udc00a", "lone-surrogate", 5),
        refuses("a high surrogate followed by another",
            "echo \ud800\ud800\udc00", "lone-surrogate", 5),
        refuses("an escaped lone low surrogate", "echo \\\udc00", "lone-surrogate", 6),
        refuses("a lone surrogate inside single quotes", "echo '\ud800'", "lone-surrogate", 6),
        refuses("empty input", "", "empty-input", 0),
        refuses("input of spaces", "   ", "empty-input", 0),
        refuses("input of tabs and spaces", "\t \t", "empty-input", 0),
        refuses("an empty first word", "'' a", "empty-command-name", 0),
        refuses("an empty double-quoted first word", "\"\"", "empty-command-name", 0),
        refuses("an empty first word after blanks", "  '' a", "empty-command-name", 2),
        refuses("an empty first word made of two quotes", "''\"\" a", "empty-command-name", 0),
        refuses("the first of several constructs", "a | b ; c", "pipe", 2),
        refuses("the first construct after quoted text",
            "echo 'x' $y | z", "parameter-expansion", 9));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepted")
  void splitsAcceptedInput(String behaviour, String input, List<String> expected) {
    assertThat(CommandParser.split(input))
        .as("argv for \"%s\"", InputRendering.escape(input))
        .containsExactlyElementsOf(expected);
  }

  @ParameterizedTest(name = "refuses {0}")
  @MethodSource("refused")
  void refusesConstruct(String behaviour, String input, String construct, int offset) {
    assertRefused(input, construct, offset);
  }

  @Test
  void refusesEveryReservedWordAsTheFirstWord() {
    for (String word : List.of("if", "then", "else", "elif", "fi", "do", "done", "case", "esac",
        "while", "until", "for", "in", "select", "function", "time", "coproc", "{", "}", "[[",
        "]]", "!")) {
      assertRefused(word + " x", "reserved-word", 0);
      assertRefused(word, "reserved-word", 0);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0x00A0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
      0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0x0085})
  void refusesNonAsciiWhitespaceEverywhere(int codePoint) {
    assertRefusedEverywhere(Character.toString(codePoint), "non-ascii-whitespace");
  }

  @ParameterizedTest
  @ValueSource(ints = {0x00AD, 0x061C, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A,
      0x202B, 0x202C, 0x202D, 0x202E, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2066, 0x2067,
      0x2068, 0x2069, 0xFEFF, 0xFFF9, 0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5,
      0x2800, 0xFE0F, 0xE0001, 0xE0041, 0xE0100, 0x1D173})
  void refusesInvisibleCharactersEverywhere(int codePoint) {
    assertRefusedEverywhere(Character.toString(codePoint), "invisible-character");
  }

  @Test
  void refusesEveryControlCharacterButTabAndQuotedNewlineEverywhere() {
    List<Integer> controls = new ArrayList<>();
    IntStream.range(0, 0x20).filter(c -> c != '\t' && c != '\n').forEach(controls::add);
    controls.add(0x7F);
    IntStream.rangeClosed(0x80, 0x9F).filter(c -> c != 0x85).forEach(controls::add);
    for (int control : controls) {
      assertRefusedEverywhere(Character.toString(control), "control-character");
    }
  }

  @Test
  void acceptsTabAndNewlineInsideQuotes() {
    assertThat(CommandParser.split("a '\t\n' \"\t\n\""))
        .containsExactly("a", "\t\n", "\t\n");
  }

  @Test
  void decidesAThreeHundredWordCommandInFull() {
    List<String> words = IntStream.range(0, 300).mapToObj(i -> "w" + i).toList();
    assertThat(CommandParser.split(String.join(" ", words))).isEqualTo(words);

    String refusedAtTheEnd = String.join(" ", words) + " ;";
    assertRefused(refusedAtTheEnd, "command-separator", refusedAtTheEnd.length() - 1);
  }

  @Test
  void decidesAHundredOperatorCommandInFull() {
    String quoted = "echo" + " '|' '&' ';' '>' '$(x)'".repeat(20);
    assertThat(CommandParser.split(quoted)).hasSize(101).containsOnlyOnce("echo");

    String pipes = "a" + " | a".repeat(100);
    assertRefused(pipes, "pipe", 2);

    String lastUnquoted = quoted + " `x`";
    assertRefused(lastUnquoted, "command-substitution", quoted.length() + 1);
  }

  @Test
  void refusalMessageNamesTheConstructOffsetCharacterAndEscapedInput() {
    ShellSyntaxException refusal = assertRefused("ls\t| wc \u200b", "pipe", 3);
    assertThat(refusal.escapedInput()).isEqualTo("ls\\u0009| wc \\u200B");
    assertThat(refusal.getMessage())
        .contains("pipe", "offset 3", "'|'", "ls\\u0009| wc \\u200B")
        .doesNotContain("\t", "\u200b");

    ShellSyntaxException invisible = assertRefused("echo a\u200b", "invisible-character", 6);
    assertThat(invisible.getMessage()).contains("U+200B");
  }

  @Test
  void reportsSupplementaryCharactersByCodePointInMessages() {
    ShellSyntaxException refusal = assertRefused("echo \udb40\udc41", "invisible-character", 5);
    assertThat(refusal.getMessage()).contains("U+E0041");
    assertThat(refusal.escapedInput()).isEqualTo("echo \\uDB40\\uDC41");
  }

  @Test
  void returnsAnUnmodifiableArgv() {
    List<String> argv = CommandParser.split("a b");
    assertThatThrownBy(() -> argv.add("c")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void refusesNullInputByName() {
    assertThatNullPointerException().isThrownBy(() -> CommandParser.split(null))
        .withMessage("input");
  }

  private static void assertRefusedEverywhere(String character, String construct) {
    assertRefused("echo a" + character + "b", construct, 6);
    assertRefused("echo " + character, construct, 5);
    assertRefused("echo 'a" + character + "b'", construct, 7);
    assertRefused("echo \"a" + character + "b\"", construct, 7);
    assertRefused("echo \\" + character, construct, 6);
    assertRefused(character + " echo", construct, 0);
  }

  private static ShellSyntaxException assertRefused(String input, String construct, int offset) {
    try {
      List<String> argv = CommandParser.split(input);
      return fail("expected %s at %d for \"%s\" but got %s", construct, offset,
          InputRendering.escape(input), argv.stream().map(InputRendering::escape).toList());
    } catch (ShellSyntaxException refusal) {
      String escaped = InputRendering.escape(input);
      assertThat(refusal.construct()).as("construct for \"%s\"", escaped).isEqualTo(construct);
      assertThat(refusal.offset()).as("offset for \"%s\"", escaped).isEqualTo(offset);
      assertThat(refusal.code()).isEqualTo(ShellSyntaxException.CODE);
      assertThat(refusal.escapedInput()).isEqualTo(escaped);
      return refusal;
    }
  }

  private static Arguments accepts(String behaviour, String input, String... argv) {
    return Arguments.of(behaviour, input, Collections.unmodifiableList(List.of(argv)));
  }

  private static Arguments refuses(String behaviour, String input, String construct, int offset) {
    return Arguments.of(behaviour, input, construct, offset);
  }
}
