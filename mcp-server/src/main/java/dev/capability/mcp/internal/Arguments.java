package dev.capability.mcp.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.mcp.McpCodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** A tool call's arguments, read with the checks the input schema states, each failure naming the argument. */
record Arguments(Map<String, @Nullable Object> values) {
  Arguments {
    values = values == null ? Map.of() : values;
  }

  String string(String name) {
    return optionalString(name).orElseThrow(() -> new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument '" + name + "' is required"));
  }

  Optional<String> optionalString(String name) {
    Object value = values.get(name);
    if (value == null) {
      return Optional.empty();
    }
    if (!(value instanceof String text)) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument '" + name + "' must be a string");
    }
    return Optional.of(text);
  }

  long integer(String name, long fallback, long min, long max) {
    Object value = values.get(name);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument '" + name + "' must be an integer");
    }
    long result = number.longValue();
    if (result < min || result > max) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument '" + name + "' must be between " + min + " and " + max + ", was " + result);
    }
    return result;
  }

  Optional<List<String>> stringList(String name) {
    Object value = values.get(name);
    if (value == null) {
      return Optional.empty();
    }
    if (!(value instanceof List<?> list) || list.isEmpty()) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument '" + name + "' must be a non-empty array of strings");
    }
    List<String> words = new ArrayList<>();
    for (Object word : list) {
      if (!(word instanceof String text)) {
        throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "argument '" + name + "' must hold only strings");
      }
      words.add(text);
    }
    return Optional.of(words);
  }

  @Nullable Object raw(String name) {
    return values.get(name);
  }
}
