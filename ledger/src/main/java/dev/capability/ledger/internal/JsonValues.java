package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Deep copies of JSON values held as maps, lists and scalars. */
public final class JsonValues {
  private JsonValues() {}

  /** An unmodifiable deep copy of a JSON object; refuses anything but maps, lists, strings, booleans, numbers and null. */
  public static Map<String, Object> immutableObject(Map<?, ?> object, String what) {
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) copy(object, new ArrayDeque<>(), what, false);
    return copy;
  }

  /** A modifiable deep copy of a JSON object, for editing before it is stored. */
  public static Map<String, Object> mutableObject(Map<?, ?> object, String what) {
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) copy(object, new ArrayDeque<>(), what, true);
    return copy;
  }

  /** {@code path} holds the member names and indices down to {@code value}; it becomes a pointer only for an error. */
  private static Object copy(Object value, Deque<Object> path, String what, boolean mutable) {
    if (value == null || value instanceof String || value instanceof Boolean || value instanceof Number) {
      return value;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>(map.size() * 2);
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String name)) {
          throw invalid(what, path, "has a member name that is not a string");
        }
        path.addLast(name);
        out.put(name, copy(e.getValue(), path, what, mutable));
        path.removeLast();
      }
      return mutable ? out : Collections.unmodifiableMap(out);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        path.addLast(i);
        out.add(copy(list.get(i), path, what, mutable));
        path.removeLast();
      }
      return mutable ? out : Collections.unmodifiableList(out);
    }
    throw invalid(what, path, "is a " + value.getClass().getName() + ", not a JSON value (map, list, string, boolean, number or null)");
  }

  private static LedgerException invalid(String what, Deque<Object> path, String why) {
    StringBuilder pointer = new StringBuilder();
    for (Object step : path) {
      pointer.append('/').append(step instanceof String name ? escape(name) : step);
    }
    return new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, what + " at '" + pointer + "' " + why);
  }

  /** RFC 6901 escaping of one member name. */
  static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
