package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.LAYER_INVALID;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.core.internal.policy.JsonTree;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads the JSON of a project contract, phase or correction layer, strictly: duplicate keys,
 * comments, trailing tokens, unknown members, coerced types and repeated list entries are all
 * refused with a line and column (syntax) or a JSON pointer (structure). Write scopes are
 * compiled here, so a bad pattern is reported with its pointer.
 */
public final class LayerJson {
  private LayerJson() {}

  /** The format version this kernel reads. */
  public static final int VERSION = 1;

  static final Set<String> MEMBERS =
      Set.of("version", "kind", "description", "executables", "network", "projectWrites", "writeScopes");
  private static final Pattern EXECUTABLE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_+-]{0,63}");
  private static final int MAX_DESCRIPTION = 1024;

  /**
   * The layer of {@code kind} described by {@code json}.
   *
   * @param source where the JSON came from, for the layer and for messages
   * @throws AuthorityException {@code LAYER_INVALID}, or {@code SCOPE_PATTERN_INVALID} for a bad write scope
   */
  public static AuthorityLayer read(Kind kind, String json, String source) {
    if (kind == Kind.OPERATOR || kind == Kind.BACKEND) {
      throw new IllegalArgumentException("the " + kind.layerName() + " layer is not read from a layer file");
    }
    JsonTree root = parse(json, source);
    if (!root.isObject()) {
      throw invalid(source, "", "a layer is a JSON object");
    }
    for (String name : root.members().keySet()) {
      if (!MEMBERS.contains(name)) {
        throw invalid(source, "/" + name.replace("~", "~0").replace("/", "~1"), "unknown property " + Printable.quote(name) + "; known: " + new TreeSet<>(MEMBERS));
      }
    }
    JsonTree version = root.get("version");
    if (version == null || !version.isInteger() || !version.integer().equals(BigInteger.valueOf(VERSION))) {
      throw invalid(source, "/version", "a layer needs \"version\": " + VERSION);
    }
    String kindName = text(root.get("kind"), source, "/kind", "a layer names its kind: \"" + kind.layerName() + "\"");
    if (!kindName.equals(kind.layerName())) {
      throw invalid(source, "/kind", "this file is a " + Printable.quote(kindName) + " layer, but was given as the " + kind.layerName());
    }
    if (hasMember(root, "description")) {
      String description = text(root.get("description"), source, "/description", "the description is a string");
      if (description.length() > MAX_DESCRIPTION) {
        throw invalid(source, "/description", "the description is longer than " + MAX_DESCRIPTION + " characters");
      }
    }
    AuthorityLayer.Builder layer = AuthorityLayer.builder(kind, source);
    if (hasMember(root, "executables")) {
      List<String> ids = texts(root.get("executables"), source, "/executables", true);
      for (int i = 0; i < ids.size(); i++) {
        if (!EXECUTABLE_ID.matcher(ids.get(i)).matches()) {
          throw invalid(source, "/executables/" + i, Printable.quote(ids.get(i)) + " is not an executable rule id of a policy");
        }
      }
      layer.executables(Set.copyOf(ids));
    }
    if (hasMember(root, "network")) {
      layer.network(constant(NetworkMode.class, root.get("network"), source, "/network"));
    }
    if (hasMember(root, "projectWrites")) {
      layer.projectWrites(constant(ProjectWriteMode.class, root.get("projectWrites"), source, "/projectWrites"));
    }
    if (hasMember(root, "writeScopes")) {
      List<String> patterns = texts(root.get("writeScopes"), source, "/writeScopes", false);
      for (int i = 0; i < patterns.size(); i++) {
        try {
          GlobPattern.writeScope(patterns.get(i));
        } catch (AuthorityException e) {
          throw new AuthorityException(e.code(), where(source, "/writeScopes/" + i) + e.getMessage(), e);
        }
      }
      layer.writeScopes(patterns);
    }
    try {
      return layer.build();
    } catch (IllegalArgumentException e) {
      throw invalid(source, "", e.getMessage());
    }
  }

  private static JsonTree parse(String json, String source) {
    try {
      return JsonTree.parse(json).orElseThrow(() -> new AuthorityException(LAYER_INVALID, source + " is empty"));
    } catch (JsonTree.SyntaxException e) {
      throw new AuthorityException(LAYER_INVALID, source + " is not valid JSON" + e.where() + ": " + e.getMessage(), e);
    }
  }

  /** Whether the object has member {@code name}, even one that is {@code null}. */
  private static boolean hasMember(JsonTree object, String name) {
    return object.members().containsKey(name);
  }

  private static String text(JsonTree node, String source, String pointer, String expectation) {
    if (node == null || !node.isText()) {
      throw invalid(source, pointer, expectation);
    }
    return node.text();
  }

  /** An array of distinct strings. */
  private static List<String> texts(JsonTree node, String source, String pointer, boolean mayBeEmpty) {
    if (!node.isArray()) {
      throw invalid(source, pointer, "expected an array of strings");
    }
    List<JsonTree> elements = node.elements();
    if (elements.isEmpty() && !mayBeEmpty) {
      throw invalid(source, pointer, "an empty list allows no write; say \"projectWrites\": \"read-only\" instead");
    }
    List<String> texts = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < elements.size(); i++) {
      String text = text(elements.get(i), source, pointer + "/" + i, "expected a string");
      if (!seen.add(text)) {
        throw invalid(source, pointer + "/" + i, Printable.quote(text) + " is listed twice");
      }
      texts.add(text);
    }
    return texts;
  }

  private static <E extends Enum<E>> E constant(Class<E> type, JsonTree node, String source, String pointer) {
    List<String> names = Arrays.stream(type.getEnumConstants()).map(LayerJson::jsonName).toList();
    String text = text(node, source, pointer, "expected one of " + names);
    for (E constant : type.getEnumConstants()) {
      if (jsonName(constant).equals(text)) {
        return constant;
      }
    }
    throw invalid(source, pointer, Printable.quote(text) + " is not one of " + names);
  }

  /** Enum constants are written as in the policy: lower case, words joined by {@code -}. */
  static String jsonName(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static String where(String source, String pointer) {
    return source + " at " + (pointer.isEmpty() ? "the top level" : pointer) + ": ";
  }

  private static AuthorityException invalid(String source, String pointer, String message) {
    return new AuthorityException(LAYER_INVALID, where(source, pointer) + message);
  }
}
