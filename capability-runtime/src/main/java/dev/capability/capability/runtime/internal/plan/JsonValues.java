package dev.capability.capability.runtime.internal.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Converts a Jackson tree into the plain values {@link dev.capability.kernel.api.json.CanonicalJson} takes. */
public final class JsonValues {
  private JsonValues() {}

  public static Object plain(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        map.put(field.getKey(), plain(field.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(element -> list.add(plain(element)));
      return list;
    }
    if (node.isTextual()) {
      return node.asText();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    if (node.isNumber()) {
      return node.isIntegralNumber() ? node.bigIntegerValue() : node.decimalValue();
    }
    return null;
  }
}
