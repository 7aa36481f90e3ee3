package com.example.wordcount;

import dev.capability.capability.api.Capability;
import dev.capability.capability.api.CapabilityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Counts the files, lines and words under the directories granted by {@code filesystem.read}, and
 * names the most frequent words. It only reads: the sandbox gives it no writable place.
 */
public final class WordCount implements Capability {
  private static final int MAX_FILES = 10_000;

  @Override
  public String execute(String inputJson, CapabilityContext context) {
    int top = Integer.parseInt(inputJson.replaceAll("(?s).*\"top\"\\s*:\\s*([0-9]+).*", "$1"));
    long files = 0;
    long lines = 0;
    long words = 0;
    Map<String, Integer> counts = new TreeMap<>();
    for (Path root : context.readablePaths()) {
      List<Path> regular;
      try (Stream<Path> walk = Files.walk(root, 8)) {
        regular = walk.filter(Files::isRegularFile).sorted().limit(MAX_FILES).toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + root, e);
      }
      for (Path file : regular) {
        List<String> text;
        try {
          text = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + file, e);
        }
        files++;
        lines += text.size();
        for (String line : text) {
          for (String word : line.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}']+")) {
            if (!word.isEmpty()) {
              words++;
              counts.merge(word, 1, Integer::sum);
            }
          }
        }
      }
      context.log("counted " + regular.size() + " files under " + root);
    }
    List<Map.Entry<String, Integer>> ranked = new ArrayList<>(counts.entrySet());
    ranked.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    StringBuilder json = new StringBuilder();
    json.append("{\"files\":").append(files).append(",\"lines\":").append(lines).append(",\"words\":").append(words).append(",\"top\":[");
    for (int i = 0; i < Math.min(top, ranked.size()); i++) {
      json.append(i == 0 ? "" : ",")
          .append("{\"word\":\"").append(ranked.get(i).getKey()).append("\",\"count\":").append(ranked.get(i).getValue()).append('}');
    }
    return json.append("]}").toString();
  }
}
