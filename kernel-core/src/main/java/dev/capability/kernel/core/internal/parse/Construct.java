package dev.capability.kernel.core.internal.parse;

import dev.capability.kernel.api.ShellSyntaxException;

/**
 * Everything the parser refuses, each with the stable name carried by
 * {@link ShellSyntaxException#construct()} and the explanation put in its message. The names are
 * part of the public contract (documented in {@code docs/parser.md}); never rename one.
 */
enum Construct {
  EMPTY_INPUT("empty-input",
      "the command is empty or only blanks, so there is no program to run"),
  EMPTY_COMMAND_NAME("empty-command-name",
      "the first word is empty after quote removal, so there is no program to run"),
  CONTROL_CHARACTER("control-character",
      "control characters are refused everywhere, inside quotes too; only TAB, and a newline"
          + " inside quotes, are allowed"),
  NON_ASCII_WHITESPACE("non-ascii-whitespace",
      "white space other than space and TAB looks like a word break but is not one; use a"
          + " plain space"),
  INVISIBLE_CHARACTER("invisible-character",
      "zero-width, filler and text-direction characters hide what the command really says;"
          + " remove it"),
  LONE_SURROGATE("lone-surrogate",
      "a UTF-16 surrogate without its pair is not a character"),
  NEWLINE("newline",
      "an unquoted newline ends the command and starts another; submit one command at a time"),
  LINE_CONTINUATION("line-continuation",
      "a backslash before a newline joins two lines in a shell; write the command on one line"),
  DANGLING_BACKSLASH("dangling-backslash",
      "the input ends with a backslash that escapes nothing"),
  UNTERMINATED_SINGLE_QUOTE("unterminated-single-quote",
      "this single quote is never closed"),
  UNTERMINATED_DOUBLE_QUOTE("unterminated-double-quote",
      "this double quote is never closed"),
  PIPE("pipe",
      "an unquoted '|' would pipe this command into another; quote it to pass it as an argument"),
  OR_LIST("or-list",
      "an unquoted '||' would run a second command when the first fails; submit commands one"
          + " at a time"),
  AND_LIST("and-list",
      "an unquoted '&&' would run a second command when the first succeeds; submit commands one"
          + " at a time"),
  BACKGROUND("background",
      "an unquoted '&' would run the command in the background and start another"),
  COMMAND_SEPARATOR("command-separator",
      "an unquoted ';' would end the command and start another; quote it to pass it as an"
          + " argument"),
  REDIRECTION("redirection",
      "an unquoted '<' or '>' would redirect input or output to a file; quote it to pass it as"
          + " an argument"),
  PROCESS_SUBSTITUTION("process-substitution",
      "'<(' or '>(' would run another command and substitute a file name for it"),
  SUBSHELL("subshell",
      "unquoted parentheses would group commands in a subshell or define a function"),
  PARAMETER_EXPANSION("parameter-expansion",
      "an unescaped '$' would substitute a variable; the kernel does not expand variables, so"
          + " write the value or put the '$' in single quotes"),
  COMMAND_SUBSTITUTION("command-substitution",
      "'$(' or a backquote would run another command and substitute its output"),
  ARITHMETIC_EXPANSION("arithmetic-expansion",
      "'$((' or '$[' would evaluate arithmetic"),
  ANSI_C_QUOTE("ansi-c-quote",
      "$'...' would interpret backslash escapes; write the characters in single quotes"),
  LOCALE_QUOTE("locale-quote",
      "$\"...\" would translate the string through the locale"),
  GLOB("glob",
      "an unquoted '*', '?', '[' or ']' would be matched against file names; quote it to pass"
          + " it as an argument"),
  BRACE("brace",
      "an unquoted '{' or '}' would expand alternatives or group commands; quote it to pass it"
          + " as an argument"),
  COMMENT("comment",
      "an unquoted '#' at the start of a word would drop the rest of the line as a comment"),
  TILDE_EXPANSION("tilde-expansion",
      "an unquoted '~' at the start of a word or after an unquoted '=' or ':' would become a"
          + " home directory; write the path or quote the '~'"),
  HISTORY_EXPANSION("history-expansion",
      "an interactive shell could replace this '!' (or this '^' starting a line) with text from"
          + " its history, even inside double quotes; write it as \\! outside quotes, put it in"
          + " single quotes before any double quote, backslash or newline, or follow it with a"
          + " space"),
  RESERVED_WORD("reserved-word",
      "the first word is a shell reserved word, which starts shell syntax instead of naming a"
          + " program; quote it if a program has that name"),
  ASSIGNMENT("assignment",
      "a first word of the form NAME=value would set a variable instead of naming a program;"
          + " the environment is set by the request, not the command line");

  private final String code;
  private final String explanation;

  Construct(String code, String explanation) {
    this.code = code;
    this.explanation = explanation;
  }

  /** The stable lower-case name of the construct. */
  String code() {
    return code;
  }

  /** The exception reporting this construct at {@code offset} of {@code input}. */
  ShellSyntaxException refusal(String input, int offset) {
    String escaped = InputRendering.escape(input);
    String message = "Refused " + code + " at offset " + offset + " ("
        + InputRendering.describeCharacterAt(input, offset) + "): " + explanation
        + ". Input: \"" + escaped + "\"";
    return new ShellSyntaxException(code, offset, escaped, message);
  }
}
