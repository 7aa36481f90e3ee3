package dev.capability.cli.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code capability} commands a Markdown page shows, in page order. A fenced block labelled
 * {@code sh} with a line starting {@code bin/capability} is an example to run, unless the line
 * before its fence is {@code <!-- not run: REASON -->}: each of its lines is one command (a
 * trailing backslash joins the next line; a trailing {@code # exit N} comment names the exit code
 * the line must end with, otherwise 0). Every other mention of {@code capability ...} (inline
 * code, other blocks, synopses with placeholders) is a reference, checked against the CLI's
 * command tree.
 */
final class DocumentedCommands {
  private static final Pattern FENCE = Pattern.compile("^\\s*```\\s*([A-Za-z]*)\\s*$");
  private static final Pattern INLINE = Pattern.compile("`((?:bin/)?capability(?: [^`]+)?)`");
  private static final Pattern EXIT_COMMENT = Pattern.compile("#\\s*exit (\\d+)\\b.*$");
  private static final Pattern NOT_RUN = Pattern.compile("^\\s*<!-- not run: .+-->\\s*$");

  private DocumentedCommands() {}

  /** A line of a runnable example. */
  record Example(Path page, int line, String text, OptionalInt expectedExit) {
    boolean isCapability() {
      return text.startsWith("bin/capability ") || text.equals("bin/capability");
    }

    @Override
    public String toString() {
      return page.getFileName() + ":" + line + ": " + text;
    }
  }

  /** A mention of a command: its words, split at white space. */
  record Reference(Path page, int line, String text) {
    List<String> words() {
      String body = text.startsWith("bin/") ? text.substring(4) : text;
      return List.of(body.trim().split("\\s+"));
    }

    @Override
    public String toString() {
      return page.getFileName() + ":" + line + ": " + text;
    }
  }

  /** The Markdown pages under the repository root: README.md and every page under docs/. */
  static List<Path> pages(Path root) throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  static List<Example> examples(Path page) throws IOException {
    List<Example> examples = new ArrayList<>();
    List<String> lines = Files.readAllLines(page);
    for (int start : runnableBlocks(lines)) {
      for (int i = start + 1; !FENCE.matcher(lines.get(i)).matches(); i++) {
        if (lines.get(i).isBlank() || lines.get(i).trim().startsWith("#")) {
          continue;
        }
        int first = i;
        StringBuilder text = new StringBuilder();
        String line = lines.get(i).trim();
        while (line.endsWith("\\") && i + 1 < lines.size()) {
          text.append(line.substring(0, line.length() - 1).stripTrailing()).append(' ');
          line = lines.get(++i).trim();
        }
        text.append(line);
        examples.add(withExitComment(page, first + 1, text.toString()));
      }
    }
    return examples;
  }

  /** The line numbers (from 0) of the opening fences of the blocks to run. */
  private static List<Integer> runnableBlocks(List<String> lines) {
    List<Integer> runnable = new ArrayList<>();
    int open = -1;
    boolean hasCapability = false;
    for (int i = 0; i < lines.size(); i++) {
      Matcher fence = FENCE.matcher(lines.get(i));
      if (!fence.matches()) {
        hasCapability |= open >= 0 && lines.get(i).trim().startsWith("bin/capability");
        continue;
      }
      if (open < 0) {
        open = fence.group(1).equals("sh") && (i == 0 || !NOT_RUN.matcher(lines.get(i - 1)).matches()) ? i : Integer.MIN_VALUE;
        hasCapability = false;
      } else {
        if (open >= 0 && hasCapability) {
          runnable.add(open);
        }
        open = -1;
      }
    }
    return runnable;
  }

  private static Example withExitComment(Path page, int line, String text) {
    int comment = commentStart(text);
    if (comment < 0) {
      return new Example(page, line, text.trim(), OptionalInt.empty());
    }
    Matcher exit = EXIT_COMMENT.matcher(text.substring(comment));
    OptionalInt expected = exit.find() ? OptionalInt.of(Integer.parseInt(exit.group(1))) : OptionalInt.empty();
    return new Example(page, line, text.substring(0, comment).trim(), expected);
  }

  /** Where an unquoted {@code #} that starts a word begins a comment, or -1. */
  private static int commentStart(String text) {
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"') {
          i++;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '\\') {
        i++;
      } else if (c == '#' && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))) {
        return i;
      }
    }
    return -1;
  }

  /** Every mention of a capability command outside runnable blocks, in page order. */
  static List<Reference> references(Path page) throws IOException {
    List<Reference> references = new ArrayList<>();
    List<String> lines = Files.readAllLines(page);
    List<Integer> runnable = runnableBlocks(lines);
    boolean inRunnable = false;
    boolean inBlock = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (FENCE.matcher(line).matches()) {
        inRunnable = !inBlock && runnable.contains(i);
        inBlock = !inBlock;
        continue;
      }
      if (inRunnable) {
        continue;
      }
      if (inBlock) {
        String trimmed = line.trim();
        if (trimmed.startsWith("bin/capability ") || trimmed.startsWith("capability ")) {
          int comment = commentStart(trimmed);
          references.add(new Reference(page, i + 1, (comment < 0 ? trimmed : trimmed.substring(0, comment)).replace("\\", " ").trim()));
        }
        continue;
      }
      Matcher inline = INLINE.matcher(line);
      while (inline.find()) {
        references.add(new Reference(page, i + 1, inline.group(1)));
      }
    }
    return references;
  }
}
