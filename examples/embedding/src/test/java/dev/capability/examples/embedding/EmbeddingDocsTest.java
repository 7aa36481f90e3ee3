package dev.capability.examples.embedding;

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

/** docs/embedding.md quotes this module's sources exactly, and quotes all of what they mark. */
class EmbeddingDocsTest {
  private static final Path PROJECT = Path.of("").toAbsolutePath().resolve("../..").normalize();
  private static final Path DOC = PROJECT.resolve("docs/embedding.md");
  private static final Path README = PROJECT.resolve("README.md");
  private static final List<String> SOURCES = List.of(
      "examples/embedding/pom.xml",
      "examples/embedding/src/main/java/module-info.java",
      "examples/embedding/src/main/java/dev/capability/examples/embedding/EmbeddingExample.java");
  /** {@code <!-- excerpt: FILE NAME -->}, then a fenced block. */
  private static final Pattern QUOTE = Pattern.compile("<!-- excerpt: (\\S+) (\\S+) -->\n```[a-z]*\n(.*?)```\n", Pattern.DOTALL);
  private static final Pattern START = Pattern.compile("embedding-([a-z-]+):start");

  @Test
  void everyQuotedBlockIsTheMarkedTextOfItsSource() throws IOException {
    assertQuotesAreExact(DOC);
  }

  @Test
  void theReadmeQuotesTheExampleExactlyToo() throws IOException {
    assertQuotesAreExact(README);
  }

  private static void assertQuotesAreExact(Path doc) throws IOException {
    Map<String, String> quoted = quotedBlocks(doc);

    assertThat(quoted).isNotEmpty();
    for (Map.Entry<String, String> quote : quoted.entrySet()) {
      String[] fileAndName = quote.getKey().split(" ");
      assertThat(quote.getValue())
          .as("the block quoting %s in %s", quote.getKey(), doc)
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

    assertThat(quotedBlocks(DOC).keySet()).containsExactlyInAnyOrderElementsOf(marked);
  }

  @Test
  void anExcerptIsTheLinesBetweenItsMarkersWithoutTheirCommonIndentation() {
    String source = "class A {\n  // embedding-x:start\n  int a;\n\n    int b;\n  // embedding-x:end\n}\n";

    assertThat(excerpt(source, "x")).isEqualTo("int a;\n\n  int b;\n");
  }

  private static Map<String, String> quotedBlocks(Path doc) throws IOException {
    Map<String, String> blocks = new LinkedHashMap<>();
    Matcher quote = QUOTE.matcher(Files.readString(doc));
    while (quote.find()) {
      assertThat(blocks.put(quote.group(1) + " " + quote.group(2), quote.group(3))).as("quoted twice: " + quote.group()).isNull();
    }
    return blocks;
  }

  /** The lines strictly between the {@code embedding-NAME:start} and {@code :end} lines, de-indented. */
  static String excerpt(String source, String name) {
    List<String> lines = source.lines().toList();
    int start = indexOf(lines, "embedding-" + name + ":start");
    int end = indexOf(lines, "embedding-" + name + ":end");
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
