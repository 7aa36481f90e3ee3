package dev.capability.kernel.core.internal.parse;

import java.util.List;

/**
 * What the text at a refusal's offset must look like for the construct it names: an independent
 * restatement of the construct table in {@code docs/parser.md}, used to check that a refusal
 * points at something a shell would actually interpret.
 */
final class RefusalShapes {
  private static final List<String> RESERVED_WORDS = List.of(
      "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
      "in", "select", "function", "time", "coproc", "{", "}", "[[", "]]", "!");

  private RefusalShapes() {}

  static boolean matches(String construct, String text, int offset) {
    if (offset == text.length()) {
      return construct.equals("empty-input") && text.isBlank();
    }
    char c = text.charAt(offset);
    String rest = text.substring(offset);
    switch (construct) {
      case "empty-input":
        return offset == 0 && text.chars().allMatch(ch -> ch == ' ' || ch == '\t');
      case "empty-command-name":
        return c == '\'' || c == '"';
      case "control-character":
        return (c < 0x20 && c != '\t' && c != '\n') || (c >= 0x7F && c <= 0x9F && c != 0x85);
      case "non-ascii-whitespace":
        int cp = text.codePointAt(offset);
        return cp == 0x85 || (cp > 0x7F && Character.isSpaceChar(cp));
      case "invisible-character":
        return c > 0x7F && !Character.isSpaceChar(text.codePointAt(offset));
      case "lone-surrogate":
        return Character.isSurrogate(c);
      case "newline":
        return c == '\n';
      case "line-continuation":
        return rest.startsWith("\\\n");
      case "dangling-backslash":
        return rest.equals("\\");
      case "unterminated-single-quote":
        return c == '\'';
      case "unterminated-double-quote":
        return c == '"';
      case "pipe":
        return c == '|';
      case "or-list":
        return rest.startsWith("||");
      case "and-list":
        return rest.startsWith("&&");
      case "background":
        return c == '&';
      case "command-separator":
        return c == ';';
      case "redirection":
        return c == '<' || c == '>' || rest.startsWith("&>");
      case "process-substitution":
        return rest.startsWith("<(") || rest.startsWith(">(");
      case "subshell":
        return c == '(' || c == ')';
      case "parameter-expansion":
        return c == '$';
      case "command-substitution":
        return rest.startsWith("$(") || c == '`';
      case "arithmetic-expansion":
        return rest.startsWith("$((") || rest.startsWith("$[");
      case "ansi-c-quote":
        return rest.startsWith("$'");
      case "locale-quote":
        return rest.startsWith("$\"");
      case "glob":
        return "*?[]".indexOf(c) >= 0;
      case "brace":
        return c == '{' || c == '}';
      case "comment":
        return c == '#';
      case "tilde-expansion":
        return c == '~';
      case "history-expansion":
        return c == '!' || c == '^';
      case "reserved-word":
        return RESERVED_WORDS.stream().anyMatch(rest::startsWith);
      case "assignment":
        return Character.isLetter(c) || c == '_';
      default:
        return false;
    }
  }
}
