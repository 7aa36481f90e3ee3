package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.LAYER_INVALID;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
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

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
      .build();

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
    JsonNode root = parse(json, source);
    if (!root.isObject()) {
      throw invalid(source, "", "a layer is a JSON object");
    }
    for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!MEMBERS.contains(name)) {
        throw invalid(source, "/" + name.replace("~", "~0").replace("/", "~1"), "unknown property " + Printable.quote(name) + "; known: " + new TreeSet<>(MEMBERS));
      }
    }
    JsonNode version = root.get("version");
    if (version == null || !version.isIntegralNumber() || !version.canConvertToInt() || version.intValue() != VERSION) {
      throw invalid(source, "/version", "a layer needs \"version\": " + VERSION);
    }
    String kindName = text(root.get("kind"), source, "/kind", "a layer names its kind: \"" + kind.layerName() + "\"");
    if (!kindName.equals(kind.layerName())) {
      throw invalid(source, "/kind", "this file is a " + Printable.quote(kindName) + " layer, but was given as the " + kind.layerName());
    }
    if (root.has("description")) {
      String description = text(root.get("description"), source, "/description", "the description is a string");
      if (description.length() > MAX_DESCRIPTION) {
        throw invalid(source, "/description", "the description is longer than " + MAX_DESCRIPTION + " characters");
      }
    }
    AuthorityLayer.Builder layer = AuthorityLayer.builder(kind, source);
    if (root.has("executables")) {
      List<String> ids = texts(root.get("executables"), source, "/executables", true);
      for (int i = 0; i < ids.size(); i++) {
        if (!EXECUTABLE_ID.matcher(ids.get(i)).matches()) {
          throw invalid(source, "/executables/" + i, Printable.quote(ids.get(i)) + " is not an executable rule id of a policy");
        }
      }
      layer.executables(Set.copyOf(ids));
    }
    if (root.has("network")) {
      layer.network(constant(NetworkMode.class, root.get("network"), source, "/network"));
    }
    if (root.has("projectWrites")) {
      layer.projectWrites(constant(ProjectWriteMode.class, root.get("projectWrites"), source, "/projectWrites"));
    }
    if (root.has("writeScopes")) {
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

  private static JsonNode parse(String json, String source) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String position = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new AuthorityException(LAYER_INVALID, source + " is not valid JSON" + position + ": " + e.getOriginalMessage(), e);
    }
    if (root == null || root.isMissingNode()) {
      throw new AuthorityException(LAYER_INVALID, source + " is empty");
    }
    return root;
  }

  private static String text(JsonNode node, String source, String pointer, String expectation) {
    if (node == null || !node.isTextual()) {
      throw invalid(source, pointer, expectation);
    }
    return node.textValue();
  }

  /** An array of distinct strings. */
  private static List<String> texts(JsonNode node, String source, String pointer, boolean mayBeEmpty) {
    if (!node.isArray()) {
      throw invalid(source, pointer, "expected an array of strings");
    }
    if (node.isEmpty() && !mayBeEmpty) {
      throw invalid(source, pointer, "an empty list allows no write; say \"projectWrites\": \"read-only\" instead");
    }
    List<String> texts = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < node.size(); i++) {
      String text = text(node.get(i), source, pointer + "/" + i, "expected a string");
      if (!seen.add(text)) {
        throw invalid(source, pointer + "/" + i, Printable.quote(text) + " is listed twice");
      }
      texts.add(text);
    }
    return texts;
  }

  private static <E extends Enum<E>> E constant(Class<E> type, JsonNode node, String source, String pointer) {
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
