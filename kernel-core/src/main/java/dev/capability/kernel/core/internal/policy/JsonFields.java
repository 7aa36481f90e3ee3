package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_INVALID;

import dev.capability.kernel.api.PolicyException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Strict, typed access to one JSON object of a policy: unknown members, wrong types and
 * duplicates in sets are refused with the JSON pointer of the offending value. No value is ever
 * coerced ({@code "60"} is not a number, {@code 1.0} is not an integer, {@code null} is nothing).
 */
final class JsonFields {
  private final JsonTree node;
  private final String pointer;

  JsonFields(JsonTree node, String pointer) {
    if (!node.isObject()) {
      throw mismatch(pointer, "an object", node);
    }
    this.node = node;
    this.pointer = pointer;
  }

  String pointer() {
    return pointer;
  }

  /** The pointer of member {@code name}. */
  String pointer(String name) {
    return JsonPointers.member(pointer, name);
  }

  /** Refuses every member not in {@code names}. */
  JsonFields allowOnly(Set<String> names) {
    for (String name : node.members().keySet()) {
      if (!names.contains(name)) {
        throw invalid(pointer(name), "unknown property " + Printable.quote(name) + "; known here: " + new TreeSet<>(names));
      }
    }
    return this;
  }

  Optional<JsonTree> get(String name) {
    return Optional.ofNullable(node.get(name));
  }

  /** The members in document order. */
  List<Map.Entry<String, JsonTree>> members() {
    return List.copyOf(node.members().entrySet());
  }

  Optional<String> text(String name) {
    return get(name).map(value -> text(value, pointer(name)));
  }

  Optional<Long> integer(String name, long min, long max) {
    return get(name).map(value -> integer(value, pointer(name), min, max));
  }

  Optional<Boolean> bool(String name) {
    return get(name).map(value -> {
      if (!value.isBoolean()) {
        throw mismatch(pointer(name), "true or false", value);
      }
      return value.booleanValue();
    });
  }

  Optional<JsonFields> object(String name) {
    return get(name).map(value -> new JsonFields(value, pointer(name)));
  }

  Optional<List<String>> texts(String name) {
    return get(name).map(value -> texts(value, pointer(name)));
  }

  /** A string array without duplicates, in document order. */
  Optional<Set<String>> textSet(String name) {
    return texts(name).map(list -> {
      Set<String> set = new LinkedHashSet<>();
      for (int i = 0; i < list.size(); i++) {
        if (!set.add(list.get(i))) {
          throw invalid(JsonPointers.element(pointer(name), i), Printable.quote(list.get(i)) + " is listed twice");
        }
      }
      return set;
    });
  }

  /** An array of objects, in document order. */
  Optional<List<JsonFields>> objects(String name) {
    return get(name).map(value -> {
      List<JsonTree> elements = elements(value, pointer(name));
      List<JsonFields> objects = new ArrayList<>();
      for (int i = 0; i < elements.size(); i++) {
        objects.add(new JsonFields(elements.get(i), JsonPointers.element(pointer(name), i)));
      }
      return objects;
    });
  }

  /** An array of string arrays. */
  Optional<List<List<String>>> textLists(String name) {
    return get(name).map(value -> {
      List<JsonTree> elements = elements(value, pointer(name));
      List<List<String>> lists = new ArrayList<>();
      for (int i = 0; i < elements.size(); i++) {
        lists.add(texts(elements.get(i), JsonPointers.element(pointer(name), i)));
      }
      return lists;
    });
  }

  static String text(JsonTree value, String pointer) {
    if (!value.isText()) {
      throw mismatch(pointer, "a string", value);
    }
    return value.text();
  }

  static long integer(JsonTree value, String pointer, long min, long max) {
    if (!value.isInteger()) {
      throw mismatch(pointer, "an integer", value);
    }
    BigInteger integer = value.integer();
    if (integer.compareTo(BigInteger.valueOf(min)) < 0 || integer.compareTo(BigInteger.valueOf(max)) > 0) {
      throw invalid(pointer, "must be between " + min + " and " + max + ", was " + integer);
    }
    return integer.longValueExact();
  }

  static List<String> texts(JsonTree value, String pointer) {
    List<JsonTree> elements = elements(value, pointer);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < elements.size(); i++) {
      texts.add(text(elements.get(i), JsonPointers.element(pointer, i)));
    }
    return texts;
  }

  static List<JsonTree> elements(JsonTree value, String pointer) {
    if (!value.isArray()) {
      throw mismatch(pointer, "an array", value);
    }
    return value.elements();
  }

  /** Runs a constructor, reporting the invariant it refuses at {@code pointer}. */
  static <T> T construct(String pointer, Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (IllegalArgumentException e) {
      throw invalid(pointer, e.getMessage());
    }
  }

  static PolicyException invalid(String pointer, String message) {
    return new PolicyException(POLICY_INVALID, "at " + JsonPointers.show(pointer) + ": " + message);
  }

  private static PolicyException mismatch(String pointer, String expected, JsonTree found) {
    return invalid(pointer, "expected " + expected + ", found " + found.kindName());
  }
}
