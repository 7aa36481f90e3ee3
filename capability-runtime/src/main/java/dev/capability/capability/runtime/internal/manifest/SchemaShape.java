package dev.capability.capability.runtime.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.re2j.PatternSyntaxException;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Bounds what validating against a schema can cost the host, before it is ever compiled.
 *
 * <p>The schema is read as the graph the validator walks: keywords that apply a subschema to the
 * same instance ({@code allOf}, {@code not}, {@code $ref}, ...) and keywords that apply one to a
 * child of the instance ({@code properties}, {@code items}, ...). A cycle of same-instance edges
 * recurses without consuming input and is refused; every other path is bounded by the input's
 * depth, and the longest path and the number of subschema evaluations per instance node are
 * computed for the deepest input the host accepts and refused above fixed budgets. So neither the
 * validator's stack nor its work can be blown up by the schema's shape, and every {@code pattern}
 * must compile for the linear-time engine that matches it.
 */
final class SchemaShape {
  /** The deepest input or output the host validates (both are parsed with this nesting limit). */
  static final int INPUT_DEPTH = 64;
  /** The longest chain of subschemas one validation may walk (bounds the validator's stack). */
  static final int MAX_PATH = 256;
  /** The most subschema evaluations one instance path may cause (bounds the validator's work). */
  static final long MAX_EVALUATIONS = 10_000;

  private static final Set<String> SAME_INSTANCE_ONE = Set.of("not", "if", "then", "else");
  private static final Set<String> SAME_INSTANCE_LIST = Set.of("allOf", "anyOf", "oneOf");
  private static final Set<String> SAME_INSTANCE_MAP = Set.of("dependentSchemas");
  private static final Set<String> CHILD_ONE =
      Set.of("additionalProperties", "propertyNames", "items", "contains", "unevaluatedItems", "unevaluatedProperties");
  private static final Set<String> CHILD_LIST = Set.of("prefixItems", "items");
  private static final Set<String> CHILD_MAP = Set.of("properties", "patternProperties");
  private static final Set<String> REFERENCES = Set.of("$ref", "$dynamicRef", "$recursiveRef");
  private static final Set<String> NUMBERS = Set.of("multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum");
  /** Numbers beyond 10^±400 leave the range of a double; {@code multipleOf} on them computes that many digits. */
  static final int MAX_EXPONENT = 400;

  private final JsonNode root;
  private final String where;
  private final Map<JsonNode, Map<Integer, Cost>> costs = new IdentityHashMap<>();
  private final Map<JsonNode, Set<Integer>> inProgress = new IdentityHashMap<>();
  private final Map<JsonNode, Boolean> checked = new IdentityHashMap<>();
  private final Map<String, JsonNode> anchors = new HashMap<>();
  private int states;

  private record Cost(int path, long evaluations) {}

  private SchemaShape(JsonNode root, String where) {
    this.root = root;
    this.where = where;
  }

  /**
   * Refuses a schema whose evaluation could recurse without consuming input ({@link
   * CapabilityCodes#MANIFEST_SCHEMA_CYCLE}), exceed the path or work budget ({@link
   * CapabilityCodes#MANIFEST_SCHEMA_TOO_COSTLY}) or holds a pattern the linear-time engine cannot
   * compile ({@link CapabilityCodes#MANIFEST_SCHEMA_PATTERN_UNSUPPORTED}).
   *
   * @return the most subschema evaluations validating one value of the input can cause
   */
  static long check(JsonNode schema, String where) {
    SchemaShape shape = new SchemaShape(schema, where);
    shape.collectAnchors(schema, 0);
    shape.checkTree(schema, "", 0);
    return shape.cost(schema, "", INPUT_DEPTH, 0).evaluations();
  }

  private PackageRefusedException tooCostly() {
    return new PackageRefusedException(
        CapabilityCodes.MANIFEST_SCHEMA_TOO_COSTLY,
        where + " may evaluate more than " + MAX_EVALUATIONS + " subschemas per input value (input nests up to " + INPUT_DEPTH + ")");
  }

  /** Checks every node in a schema position of the document, referenced or not. */
  private void checkTree(JsonNode node, String pointer, int depth) {
    if (depth > ManifestParser.MAX_DEPTH || !node.isObject() || checked.put(node, true) != null) {
      return;
    }
    checkKeywords(node, pointer);
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String key = field.getKey();
      JsonNode value = field.getValue();
      String here = pointer + "/" + escape(key);
      boolean one = SAME_INSTANCE_ONE.contains(key) || CHILD_ONE.contains(key);
      boolean list = SAME_INSTANCE_LIST.contains(key) || CHILD_LIST.contains(key);
      boolean map = SAME_INSTANCE_MAP.contains(key) || CHILD_MAP.contains(key) || key.equals("$defs") || key.equals("definitions");
      if (one && value.isObject()) {
        checkTree(value, here, depth + 1);
      } else if ((list && value.isArray()) || (map && value.isObject())) {
        for (Iterator<Map.Entry<String, JsonNode>> children = value.fields(); children.hasNext(); ) {
          Map.Entry<String, JsonNode> child = children.next();
          checkTree(child.getValue(), here + "/" + escape(child.getKey()), depth + 1);
        }
        for (int i = 0; value.isArray() && i < value.size(); i++) {
          checkTree(value.get(i), here + "/" + i, depth + 1);
        }
      }
    }
  }

  private void checkKeywords(JsonNode node, String pointer) {
    JsonNode pattern = node.get("pattern");
    if (pattern != null && pattern.isTextual()) {
      compiles(pattern.asText(), pointer + "/pattern");
    }
    JsonNode patternProperties = node.get("patternProperties");
    if (patternProperties != null && patternProperties.isObject()) {
      for (Iterator<String> names = patternProperties.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        compiles(name, pointer + "/patternProperties/" + escape(name));
      }
    }
    for (String keyword : NUMBERS) {
      JsonNode number = node.get(keyword);
      if (number != null && extreme(number)) {
        throw invalid(pointer + "/" + keyword, "is beyond 10^±" + MAX_EXPONENT);
      }
    }
    JsonNode type = node.get("type");
    if (type != null && !type.isTextual() && !(type.isArray() && allTextual(type))) {
      throw invalid(pointer + "/type", "must be a type name or a list of type names");
    }
  }

  private Cost cost(JsonNode node, String pointer, int depth, int path) {
    if (!node.isObject()) {
      return new Cost(1, 1);
    }
    Cost known = costs.getOrDefault(node, Map.of()).get(depth);
    if (known != null) {
      return known;
    }
    if (path > MAX_PATH) {
      throw new PackageRefusedException(
          CapabilityCodes.MANIFEST_SCHEMA_TOO_COSTLY, where + " at " + pointerText(pointer) + " chains more than " + MAX_PATH + " subschemas");
    }
    if (!inProgress.computeIfAbsent(node, n -> new java.util.HashSet<>()).add(depth)) {
      throw new PackageRefusedException(
          CapabilityCodes.MANIFEST_SCHEMA_CYCLE,
          where + " at " + pointerText(pointer) + " refers back to itself without consuming any input, so validating it never ends");
    }
    int longest = 0;
    long evaluations = 1;
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String key = field.getKey();
      JsonNode value = field.getValue();
      String here = pointer + "/" + escape(key);
      for (Edge edge : edges(key, value, here)) {
        int childDepth = edge.consumes() ? depth - 1 : depth;
        if (childDepth < 0) {
          continue;
        }
        Cost child = cost(edge.target(), edge.pointer(), childDepth, path + 1);
        longest = Math.max(longest, child.path());
        evaluations += child.evaluations();
        if (evaluations > MAX_EVALUATIONS) {
          throw tooCostly();
        }
      }
    }
    inProgress.get(node).remove(depth);
    Cost cost = new Cost(longest + 1, evaluations);
    if (cost.path() > MAX_PATH) {
      throw new PackageRefusedException(
          CapabilityCodes.MANIFEST_SCHEMA_TOO_COSTLY, where + " at " + pointerText(pointer) + " chains more than " + MAX_PATH + " subschemas");
    }
    costs.computeIfAbsent(node, n -> new HashMap<>()).put(depth, cost);
    // Each state counts at least once in the root's evaluations, so more states than the budget is
    // over budget; stopping here bounds this analysis's own time and memory.
    if (++states > MAX_EVALUATIONS) {
      throw tooCostly();
    }
    return cost;
  }

  private record Edge(JsonNode target, String pointer, boolean consumes) {}

  private java.util.List<Edge> edges(String key, JsonNode value, String here) {
    java.util.List<Edge> edges = new java.util.ArrayList<>();
    boolean consumes = CHILD_ONE.contains(key) || CHILD_LIST.contains(key) || CHILD_MAP.contains(key);
    if (REFERENCES.contains(key) && value.isTextual()) {
      edges.add(new Edge(resolve(value.asText(), here), value.asText().substring(1), false));
    } else if ((SAME_INSTANCE_ONE.contains(key) || CHILD_ONE.contains(key)) && value.isObject()) {
      edges.add(new Edge(value, here, consumes));
    } else if ((SAME_INSTANCE_LIST.contains(key) || CHILD_LIST.contains(key)) && value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        edges.add(new Edge(value.get(i), here + "/" + i, consumes));
      }
    } else if ((SAME_INSTANCE_MAP.contains(key) || CHILD_MAP.contains(key)) && value.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> children = value.fields(); children.hasNext(); ) {
        Map.Entry<String, JsonNode> child = children.next();
        edges.add(new Edge(child.getValue(), here + "/" + escape(child.getKey()), consumes));
      }
    }
    return edges;
  }

  private JsonNode resolve(String reference, String here) {
    if (!reference.startsWith("#")) {
      throw invalid(here, "must be a reference inside the document (starting with '#')");
    }
    JsonNode target;
    try {
      String fragment = URLDecoder.decode(reference.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
      target = fragment.isEmpty() || fragment.startsWith("/") ? root.at(fragment) : anchors.get(fragment);
    } catch (IllegalArgumentException e) {
      throw invalid(here, "holds a malformed reference: " + e.getMessage());
    }
    if (target == null || target.isMissingNode() || !(target.isObject() || target.isBoolean())) {
      throw invalid(here, "refers to '" + reference + "', which is not a schema in this document");
    }
    if (target.isObject() && !checked.containsKey(target)) {
      checkTree(target, reference.substring(1), 0);
    }
    return target;
  }

  private void collectAnchors(JsonNode node, int depth) {
    if (depth > ManifestParser.MAX_DEPTH) {
      return;
    }
    if (node.isObject()) {
      for (String keyword : new String[] {"$anchor", "$dynamicAnchor"}) {
        JsonNode anchor = node.get(keyword);
        if (anchor != null && anchor.isTextual() && anchors.putIfAbsent(anchor.asText(), node) != null) {
          throw invalid("", "names the anchor '" + ScopeGrammar.printable(anchor.asText()) + "' twice");
        }
      }
    }
    for (JsonNode child : node) {
      collectAnchors(child, depth + 1);
    }
  }

  private void compiles(String pattern, String pointer) {
    try {
      Re2Patterns.compile(pattern);
    } catch (PatternSyntaxException e) {
      throw new PackageRefusedException(
          CapabilityCodes.MANIFEST_SCHEMA_PATTERN_UNSUPPORTED,
          where + " at " + pointerText(pointer) + " has a pattern that the linear-time matcher (RE2 syntax) cannot compile"
              + " (no backreferences, lookaround or repetition counts over 1000): " + e.getDescription(),
          e);
    }
  }

  /** Whether {@code node} is a number whose decimal exponent exceeds {@link #MAX_EXPONENT} either way. */
  static boolean extreme(JsonNode node) {
    if (!node.isNumber() || !node.isBigDecimal() || node.decimalValue().signum() == 0) {
      return false;
    }
    java.math.BigDecimal value = node.decimalValue();
    long exponent = (long) value.precision() - value.scale() - 1;
    return Math.abs(exponent) > MAX_EXPONENT;
  }

  private static boolean allTextual(JsonNode array) {
    for (JsonNode element : array) {
      if (!element.isTextual()) {
        return false;
      }
    }
    return true;
  }

  private PackageRefusedException invalid(String pointer, String why) {
    return new PackageRefusedException(CapabilityCodes.MANIFEST_SCHEMA_INVALID, where + " at " + pointerText(pointer) + " " + why);
  }

  private static String pointerText(String pointer) {
    return pointer.isEmpty() ? "#" : "#" + pointer;
  }

  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }
}
