package dev.capability.openapi.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.capability.runtime.support.ManifestRules;
import dev.capability.openapi.ImportedOperation;
import dev.capability.openapi.OpenApiCodes;
import dev.capability.openapi.OpenApiRefusedException;
import dev.capability.openapi.invoker.HttpOperationInvoker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files an import yields per operation: {@code capability.json} naming the module and its
 * integrity, the module jar ({@link OperationModule}) and {@code operation.json}, the binding for
 * review.
 */
public final class ImportedDocuments {
  /** The format name of {@code operation.json}. */
  public static final String OPERATION_FORMAT = "capability-http-operation/1";

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String OUTPUT_SCHEMA = """
      {"type": "object", "properties": {"status": {"type": "integer", "minimum": 100, "maximum": 999},
       "body": {"type": "string"}}, "required": ["status", "body"], "additionalProperties": false}""";

  private ImportedDocuments() {}

  public static String manifest(ImportedOperation operation) {
    return manifest(operation, OperationModule.jar(operation));
  }

  private static String manifest(ImportedOperation operation, byte[] module) {
    ObjectNode manifest = JSON.createObjectNode();
    manifest.put("name", operation.name());
    manifest.put("version", operation.version());
    if (!operation.description().isEmpty()) {
      manifest.put("description", operation.description());
    }
    ObjectNode entry = manifest.putObject("entry");
    entry.put("module", OperationModule.MODULE_PATH);
    entry.put("class", HttpOperationInvoker.class.getName());
    manifest.putObject("modules").put(OperationModule.MODULE_PATH, ManifestRules.integrity(module));
    manifest.putObject("effects").putArray(operation.connect().kind().id()).add(operation.connect().scope());
    manifest.set("input", parse(operation.inputSchemaJson()));
    manifest.set("output", parse(OUTPUT_SCHEMA));
    return write(manifest);
  }

  public static String operation(ImportedOperation operation) {
    ObjectNode binding = JSON.createObjectNode();
    binding.put("format", OPERATION_FORMAT);
    binding.put("capability", operation.name());
    binding.put("method", operation.method());
    binding.put("server", operation.server().toString());
    binding.put("path", operation.path());
    JsonNode input = parse(operation.inputSchemaJson()).path("properties");
    ObjectNode parameters = binding.putObject("parameters");
    for (String location : List.of("path", "query", "header", "cookie")) {
      if (input.has(location)) {
        input.get(location).path("properties").fieldNames().forEachRemaining(parameters.putArray(location)::add);
      }
    }
    operation.requestMediaType().ifPresent(media -> binding.put("body", media));
    binding.set("response", parse(operation.outputSchemaJson()));
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
        byte[] module = OperationModule.jar(operation);
        Path jar = target.resolve(OperationModule.MODULE_PATH).normalize();
        Files.createDirectory(jar.getParent());
        Files.write(jar, module, StandardOpenOption.CREATE_NEW);
        Files.writeString(target.resolve("capability.json"), manifest(operation, module), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
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
