package dev.capability.examples.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/integrations.md quotes this example exactly. */
class LangChain4jDocsTest {
  private static final Path PROJECT = Path.of("").toAbsolutePath().resolve("../..").normalize();
  private static final Path DOC = PROJECT.resolve("docs/integrations.md");
  private static final String SOURCE = "examples/langchain4j/src/main/java/dev/capability/examples/langchain4j/LangChain4jExample.java";
  /** {@code <!-- excerpt: FILE NAME -->}, then a fenced block. */
  private static final Pattern QUOTE = Pattern.compile("<!-- excerpt: (\\S+) (\\S+) -->\n```[a-z]*\n(.*?)```\n", Pattern.DOTALL);

  @Test
  void theQuotedAgentIsTheMarkedTextOfTheExample() throws IOException {
    Matcher quote = QUOTE.matcher(Files.readString(DOC));
    int quoted = 0;
    while (quote.find()) {
      if (quote.group(1).equals(SOURCE)) {
        assertThat(quote.group(3)).as("the block quoting %s %s", SOURCE, quote.group(2))
            .isEqualTo(excerpt(Files.readString(PROJECT.resolve(SOURCE)), quote.group(2)));
        quoted++;
      }
    }
    assertThat(quoted).isEqualTo(1);
  }

  @Test
  void anExcerptIsTheLinesBetweenItsMarkersWithoutTheirCommonIndentation() {
    assertThat(excerpt("class A {\n  // langchain4j-x:start\n  int a;\n    int b;\n  // langchain4j-x:end\n}\n", "x"))
        .isEqualTo("int a;\n  int b;\n");
  }

  /** The lines strictly between the {@code langchain4j-NAME:start} and {@code :end} lines, de-indented. */
  static String excerpt(String source, String name) {
    List<String> lines = source.lines().toList();
    int start = indexOf(lines, "langchain4j-" + name + ":start");
    int end = indexOf(lines, "langchain4j-" + name + ":end");
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
