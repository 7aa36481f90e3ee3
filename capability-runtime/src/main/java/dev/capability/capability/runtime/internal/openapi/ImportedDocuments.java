package dev.capability.capability.runtime.internal.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.capability.runtime.openapi.ImportedOperation;
import dev.capability.capability.runtime.openapi.OpenApiCodes;
import dev.capability.capability.runtime.openapi.OpenApiRefusedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The files an import yields: {@code capability.json} without a module, and {@code operation.json}. */
public final class ImportedDocuments {
  /** The format name of {@code operation.json}. */
  public static final String OPERATION_FORMAT = "capability-http-operation/1";

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ImportedDocuments() {}

  public static String manifest(ImportedOperation operation) {
    ObjectNode manifest = JSON.createObjectNode();
    manifest.put("name", operation.name());
    manifest.put("version", operation.version());
    if (!operation.description().isEmpty()) {
      manifest.put("description", operation.description());
    }
    manifest.putObject("effects").putArray(operation.connect().kind().id()).add(operation.connect().scope());
    manifest.set("input", parse(operation.inputSchemaJson()));
    manifest.set("output", parse(operation.outputSchemaJson()));
    return write(manifest);
  }

  public static String operation(ImportedOperation operation) {
    ObjectNode binding = JSON.createObjectNode();
    binding.put("format", OPERATION_FORMAT);
    binding.put("capability", operation.name());
    binding.put("method", operation.method());
    binding.put("server", operation.server().toString());
    binding.put("path", operation.path());
    return write(binding);
  }

  public static List<Path> write(List<ImportedOperation> operations, Path directory) {
    try {
      if (Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
          throw output(directory + " exists and is not a directory");
        }
        try (Stream<Path> children = Files.list(directory)) {
          if (children.findAny().isPresent()) {
            throw output(directory + " is not empty; imports never overwrite");
          }
        }
      } else {
        Files.createDirectories(directory);
      }
      List<Path> written = new ArrayList<>();
      for (ImportedOperation operation : operations) {
        // names are validated capability names: no separators, no dot segments
        Path target = Files.createDirectory(directory.resolve(operation.name()));
        Files.writeString(target.resolve("capability.json"), manifest(operation), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
        Files.writeString(target.resolve("operation.json"), operation(operation), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
        written.add(target);
      }
      return List.copyOf(written);
    } catch (IOException e) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_OUTPUT_INVALID, "could not write to " + directory + ": " + e, e);
    }
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an imported schema is always valid JSON", e);
    }
  }

  private static String write(JsonNode node) {
    try {
      return JSON.writeValueAsString(node) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serializes", e);
    }
  }

  private static OpenApiRefusedException output(String why) {
    return new OpenApiRefusedException(OpenApiCodes.OPENAPI_OUTPUT_INVALID, why);
  }
}
