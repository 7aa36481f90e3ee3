package dev.capability.examples.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.integrations.springai.CapabilityProperties;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Spring AI section of docs/integrations.md quotes this example exactly, quotes all of what it
 * marks, and lists every {@code capability.*} property.
 */
class SpringAiDocsTest {
  private static final Path PROJECT = Path.of("").toAbsolutePath().resolve("../..").normalize();
  private static final Path DOC = PROJECT.resolve("docs/integrations.md");
  private static final String EXAMPLE = "examples/spring-ai/";
  private static final List<String> SOURCES = List.of(
      EXAMPLE + "pom.xml",
      EXAMPLE + "src/main/java/dev/capability/examples/springai/SpringAiExample.java");
  /** {@code <!-- excerpt: FILE NAME -->}, then a fenced block. */
  private static final Pattern QUOTE = Pattern.compile("<!-- excerpt: (\\S+) (\\S+) -->\n```[a-z]*\n(.*?)```\n", Pattern.DOTALL);
  private static final Pattern START = Pattern.compile("spring-ai-([a-z-]+):start");

  @Test
  void everyQuotedBlockIsTheMarkedTextOfItsSource() throws IOException {
    Map<String, String> quoted = quotedBlocks();

    assertThat(quoted).isNotEmpty();
    for (Map.Entry<String, String> quote : quoted.entrySet()) {
      String[] fileAndName = quote.getKey().split(" ");
      assertThat(quote.getValue())
          .as("the block quoting %s", quote.getKey())
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

    assertThat(marked).isNotEmpty();
    assertThat(quotedBlocks().keySet()).containsExactlyInAnyOrderElementsOf(marked);
  }

  @Test
  void thePropertiesTableListsEveryProperty() throws IOException {
    String doc = Files.readString(DOC);
    String[] properties = Arrays.stream(CapabilityProperties.class.getRecordComponents())
        .map(RecordComponent::getName)
        .map(name -> "| `" + CapabilityProperties.PREFIX + "." + name.replaceAll("([A-Z])", "-$1").toLowerCase())
        .toArray(String[]::new);

    assertThat(properties).hasSize(6);
    assertThat(doc).contains(properties);
  }

  /** The quoted blocks of this example in the page, by {@code FILE NAME}. */
  private static Map<String, String> quotedBlocks() throws IOException {
    Map<String, String> quoted = new LinkedHashMap<>();
    Matcher quote = QUOTE.matcher(Files.readString(DOC));
    while (quote.find()) {
      if (quote.group(1).startsWith(EXAMPLE)) {
        quoted.put(quote.group(1) + " " + quote.group(2), quote.group(3));
      }
    }
    return quoted;
  }

  /** The lines strictly between the {@code spring-ai-NAME:start} and {@code :end} lines, de-indented. */
  private static String excerpt(String source, String name) {
    List<String> lines = source.lines().toList();
    int start = indexOf(lines, "spring-ai-" + name + ":start");
    int end = indexOf(lines, "spring-ai-" + name + ":end");
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
