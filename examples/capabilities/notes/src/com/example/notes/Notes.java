package com.example.notes;

import dev.capability.capability.api.Capability;
import dev.capability.capability.api.CapabilityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes one note into the directory granted by {@code filesystem.write}, checks it in {@code
 * verify}, and removes it in {@code rollback} when the run is not verified. The input's {@code
 * failVerify} makes verification fail on purpose, to show the rollback.
 */
public final class Notes implements Capability {

  @Override
  public String execute(String inputJson, CapabilityContext context) {
    Path note = note(inputJson, context);
    try {
      // CREATE_NEW: a note is never overwritten, so a rollback only ever removes what this run wrote.
      Files.writeString(note, text(inputJson), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + note, e);
    }
    context.log("wrote " + note);
    return "{\"note\":\"" + note.getFileName() + "\",\"bytes\":" + text(inputJson).getBytes(StandardCharsets.UTF_8).length + "}";
  }

  @Override
  public boolean verify(String inputJson, String outputJson, CapabilityContext context) {
    if (inputJson.matches("(?s).*\"failVerify\"\\s*:\\s*true.*")) {
      context.log("verification fails on request (failVerify)");
      return false;
    }
    try {
      return Files.readString(note(inputJson, context), StandardCharsets.UTF_8).equals(text(inputJson));
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void rollback(String inputJson, CapabilityContext context) {
    Path note = note(inputJson, context);
    try {
      Files.deleteIfExists(note);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + note, e);
    }
    context.log("removed " + note);
  }

  private static Path note(String inputJson, CapabilityContext context) {
    // The input schema allows only [a-z0-9-] titles, so the name cannot leave the directory.
    String title = inputJson.replaceAll("(?s).*\"title\"\\s*:\\s*\"([a-z0-9-]+)\".*", "$1");
    return context.writablePaths().get(0).resolve(title + ".md");
  }

  private static String text(String inputJson) {
    return inputJson.replaceAll("(?s).*\"text\"\\s*:\\s*\"([^\"\\\\]*)\".*", "$1") + "\n";
  }
}
