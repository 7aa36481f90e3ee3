package dev.capability.examples.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/integrations.md quotes this example exactly, and quotes all of what it marks. */
class IntegrationsDocsTest {
  private static final Path PROJECT = Path.of("").toAbsolutePath().resolve("../..").normalize();
  private static final Path DOC = PROJECT.resolve("docs/integrations.md");
  private static final String EXAMPLE = "examples/junit5/";
  private static final List<String> SOURCES = List.of(
      EXAMPLE + "pom.xml",
      EXAMPLE + "src/test/java/dev/capability/examples/junit5/BuildToolCommandsTest.java");
  /** {@code <!-- excerpt: FILE NAME -->}, then a fenced block. */
  private static final Pattern QUOTE = Pattern.compile("<!-- excerpt: (\\S+) (\\S+) -->\n```[a-z]*\n(.*?)```\n", Pattern.DOTALL);
  private static final Pattern START = Pattern.compile("junit5-([a-z-]+):start");

  @Test
  void everyQuotedBlockIsTheMarkedTextOfItsSource() throws IOException {
    Map<String, String> quoted = quotedBlocks();

    assertThat(quoted).isNotEmpty();
    for (Map.Entry<String, String> quote : quoted.entrySet()) {
      String[] fileAndName = quote.getKey().split(" ");
      assertThat(quote.getValue())
          .as("the block quoting %s in %s", quote.getKey(), DOC)
          .isEqualTo(excerpt(Files.readString(PROJECT.resolve(fileAndName[0])), fileAndName[1]));
    }
  }

  @Test
  void everyMarkedExcerptIsQuoted() throws IOException {
    List<String> marked = new ArrayList<>();
    for (String source : SOURCES) {
      Matcher start = START.matcher(Files.readString(PROJECT.resolve(source)));
      while (start.find()) {
        marked.add(source + " " + start.group(1));
      }
    }

    assertThat(quotedBlocks().keySet()).containsExactlyInAnyOrderElementsOf(marked);
  }

  /** The blocks that quote this example; other integrations' sections quote their own. */
  private static Map<String, String> quotedBlocks() throws IOException {
    Map<String, String> blocks = new LinkedHashMap<>();
    Matcher quote = QUOTE.matcher(Files.readString(DOC));
    while (quote.find()) {
      if (quote.group(1).startsWith(EXAMPLE)) {
        assertThat(blocks.put(quote.group(1) + " " + quote.group(2), quote.group(3))).as("quoted twice: " + quote.group()).isNull();
      }
    }
    return blocks;
  }

  /** The lines strictly between the {@code junit5-NAME:start} and {@code :end} lines, de-indented. */
  private static String excerpt(String source, String name) {
    List<String> lines = source.lines().toList();
    int start = indexOf(lines, "junit5-" + name + ":start");
    int end = indexOf(lines, "junit5-" + name + ":end");
    assertThat(end).as("markers of %s in order", name).isGreaterThan(start);
    return String.join("\n", lines.subList(start + 1, end)).stripIndent() + "\n";
  }

  private static int indexOf(List<String> lines, String marker) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(marker)) {
        return i;
      }
    }
    throw new AssertionError("no line contains " + marker);
  }
}
