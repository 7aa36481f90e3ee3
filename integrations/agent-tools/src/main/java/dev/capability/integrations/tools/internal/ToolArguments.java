package dev.capability.integrations.tools.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.integrations.tools.AgentToolCodes;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.kernel.api.CapabilityException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One call's arguments, bounded before they are parsed, parsed strictly (one JSON object, no
 * duplicate names, only the names the schema lists) and read with the checks the schema states,
 * each failure naming the argument.
 */
final class ToolArguments {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final ObjectNode values;

  private ToolArguments(ObjectNode values) {
    this.values = values;
  }

  /**
   * @param allowed the argument names the tool's schema lists
   * @throws CapabilityException {@link AgentToolCodes#ARGUMENTS_TOO_LARGE} or {@link AgentToolCodes#INVALID_ARGUMENT}
   */
  static ToolArguments parse(@Nullable String json, Set<String> allowed) {
    if (json == null || json.isBlank()) {
      return new ToolArguments(JSON.createObjectNode());
    }
    int bytes = json.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > AgentTools.MAX_ARGUMENTS_BYTES) {
      throw new CapabilityException(AgentToolCodes.ARGUMENTS_TOO_LARGE,
          "the arguments have " + bytes + " bytes; the limit is " + AgentTools.MAX_ARGUMENTS_BYTES);
    }
    JsonNode tree;
    try {
      tree = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw invalid("the arguments are not JSON: " + e.getOriginalMessage());
    }
    if (!(tree instanceof ObjectNode object)) {
      throw invalid("the arguments must be a JSON object");
    }
    for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw invalid("unknown argument '" + name + "'; this tool takes " + allowed.stream().sorted().toList());
      }
    }
    return new ToolArguments(object);
  }

  static CapabilityException invalid(String message) {
    return new CapabilityException(AgentToolCodes.INVALID_ARGUMENT, message);
  }

  private @Nullable JsonNode present(String name) {
    JsonNode value = values.get(name);
    return value == null || value.isNull() ? null : value;
  }

  String string(String name) {
    return optionalString(name).orElseThrow(() -> invalid("argument '" + name + "' is required"));
  }

  Optional<String> optionalString(String name) {
    JsonNode value = present(name);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw invalid("argument '" + name + "' must be a string, was " + kind(value));
    }
    return Optional.of(value.textValue());
  }

  boolean flag(String name) {
    JsonNode value = present(name);
    if (value == null) {
      return false;
    }
    if (!value.isBoolean()) {
      throw invalid("argument '" + name + "' must be a boolean, was " + kind(value));
    }
    return value.booleanValue();
  }

  /** A non-empty list of strings of at most {@link AgentTools#MAX_ARGV} words. */
  Optional<List<String>> stringList(String name) {
    JsonNode value = present(name);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isArray() || value.isEmpty()) {
      throw invalid("argument '" + name + "' must be a non-empty array of strings, was " + kind(value));
    }
    if (value.size() > AgentTools.MAX_ARGV) {
      throw new CapabilityException(AgentToolCodes.ARGUMENTS_TOO_LARGE,
          "argument '" + name + "' has " + value.size() + " words; the limit is " + AgentTools.MAX_ARGV);
    }
    List<String> words = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      JsonNode word = value.get(i);
      if (!word.isTextual()) {
        throw invalid("argument '" + name + "' must hold only strings; element " + i + " is " + kind(word));
      }
      words.add(word.textValue());
    }
    return Optional.of(List.copyOf(words));
  }

  /** The JSON text of an argument that must be an object. */
  String object(String name) {
    JsonNode value = present(name);
    if (value == null) {
      throw invalid("argument '" + name + "' is required");
    }
    if (!value.isObject()) {
      throw invalid("argument '" + name + "' must be a JSON object, was " + kind(value));
    }
    return value.toString();
  }

  /** The JSON text of an argument of any JSON type, null included. */
  String anyJson(String name) {
    JsonNode value = values.get(name);
    if (value == null) {
      throw invalid("argument '" + name + "' is required");
    }
    return value.toString();
  }

  private static String kind(JsonNode value) {
    return switch (value.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT, POJO -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL, MISSING -> "null";
      case BINARY -> "binary";
    };
  }
}
