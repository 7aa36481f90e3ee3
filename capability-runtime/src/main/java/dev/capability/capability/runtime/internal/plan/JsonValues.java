package dev.capability.capability.runtime.internal.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Converts a Jackson tree into the plain values {@link dev.capability.kernel.api.json.CanonicalJson} takes. */
public final class JsonValues {
  private JsonValues() {}

  /**
   * A copy of a plain value whose maps and lists, at every level, cannot be modified; map order
   * is kept and JSON {@code null}s stay.
   */
  public static Object frozen(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      map.forEach((key, member) -> copy.put(key, frozen(member)));
      return Collections.unmodifiableMap(copy);
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(element -> copy.add(frozen(element)));
      return Collections.unmodifiableList(copy);
    }
    return value;
  }

  /** The plain value of {@code node}, numbers exactly as written ({@code BigInteger}, {@code BigDecimal}). */
  public static Object plain(JsonNode node) {
    return plain(node, false);
  }

  /**
   * The plain value of {@code node} with numbers read the way RFC 8785 reads them, as the double
   * nearest to what is written. Canonical JSON writes a double with the fewest digits that read
   * back as it, which are not always its exact value, so this is how canonical text is read back.
   * Integers of up to 53 bits stay exact integers.
   */
  public static Object plainReadingDoubles(JsonNode node) {
    return plain(node, true);
  }

  private static Object plain(JsonNode node, boolean doubles) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        map.put(field.getKey(), plain(field.getValue(), doubles));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(element -> list.add(plain(element, doubles)));
      return list;
    }
    if (node.isTextual()) {
      return node.asText();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    if (node.isNumber()) {
      if (node.isIntegralNumber() && (!doubles || node.bigIntegerValue().bitLength() <= 53)) {
        return node.bigIntegerValue();
      }
      return doubles ? (Object) node.doubleValue() : node.decimalValue();
    }
    return null;
  }
}
