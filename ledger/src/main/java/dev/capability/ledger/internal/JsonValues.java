package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Deep copies of JSON values held as maps, lists and scalars. */
public final class JsonValues {
  private JsonValues() {}

  /** An unmodifiable deep copy of a JSON object; refuses anything but maps, lists, strings, booleans, numbers and null. */
  public static Map<String, Object> immutableObject(Map<?, ?> object, String what) {
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) copy(object, "", what, false);
    return copy;
  }

  /** A modifiable deep copy of a JSON object, for editing before it is stored. */
  public static Map<String, Object> mutableObject(Map<?, ?> object, String what) {
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) copy(object, "", what, true);
    return copy;
  }

  private static Object copy(Object value, String pointer, String what, boolean mutable) {
    if (value == null || value instanceof String || value instanceof Boolean || value instanceof Number) {
      return value;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String name)) {
          throw invalid(what, pointer, "has a member name that is not a string");
        }
        out.put(name, copy(e.getValue(), pointer + "/" + escape(name), what, mutable));
      }
      return mutable ? out : Collections.unmodifiableMap(out);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        out.add(copy(list.get(i), pointer + "/" + i, what, mutable));
      }
      return mutable ? out : Collections.unmodifiableList(out);
    }
    throw invalid(what, pointer, "is a " + value.getClass().getName() + ", not a JSON value (map, list, string, boolean, number or null)");
  }

  private static LedgerException invalid(String what, String pointer, String why) {
    return new LedgerException("LEDGER_RECORD_INVALID", what + " at '" + pointer + "' " + why);
  }

  /** RFC 6901 escaping of one member name. */
  static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
