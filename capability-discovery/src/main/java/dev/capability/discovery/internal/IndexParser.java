package dev.capability.discovery.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.capability.acquire.Coordinates;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.support.Printable;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.IndexDocument;
import dev.capability.discovery.IndexEntry;
import dev.capability.discovery.IndexRefusedException;
import dev.capability.kernel.api.CapabilityException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Parses an index document strictly: the JSON rules of {@link StrictJson}, no unknown members,
 * every value checked. A document with one bad entry is refused whole, naming the entry: an
 * index that cannot describe its own entries correctly is not one to read selectively.
 */
public final class IndexParser {
  /** The largest document parsed (the traversal's byte limits are usually smaller). */
  public static final int MAX_BYTES = 16 * 1024 * 1024;
  public static final int MAX_DEPTH = 8;
  public static final int MAX_ENTRIES = 10_000;
  public static final int MAX_LINKS = 1_000;
  public static final int MAX_DESCRIPTION = 2_000;
  public static final int MAX_CLAIMS = 16;
  public static final int MAX_SCOPES = 64;

  private static final Set<String> ROOT = Set.of("format", "entries", "links");
  private static final Set<String> ENTRY = Set.of("coordinates", "name", "description", "effects", "claims");
  private static final Pattern NAME = Pattern.compile("[a-z0-9](?:[a-z0-9-]|\\.(?!\\.)){0,98}[a-z0-9]|[a-z0-9]");
  private static final Pattern CLAIM = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,63}");
  private static final StrictJson JSON = new StrictJson(MAX_BYTES, MAX_DEPTH);

  private IndexParser() {}

  public static IndexDocument parse(byte[] bytes, URI source) {
    JsonNode root;
    try {
      root = JSON.parse(bytes, "index " + UrlCredentials.redacted(source));
    } catch (StrictJson.StrictJsonException e) {
      String code = e.failure() == StrictJson.Failure.TOO_LARGE ? DiscoveryCodes.INDEX_TOO_LARGE : DiscoveryCodes.INDEX_INVALID;
      throw new IndexRefusedException(code, Printable.of(e.getMessage()), e);
    }
    if (!root.isObject()) {
      throw invalid(source, "", "must be a JSON object");
    }
    onlyKnown(root, ROOT, source, "");
    JsonNode format = root.get("format");
    if (format == null || !format.isTextual() || !format.asText().equals(IndexDocument.FORMAT)) {
      throw invalid(source, "/format", "must be \"" + IndexDocument.FORMAT + "\"");
    }
    List<IndexEntry> entries = new ArrayList<>();
    JsonNode entryNodes = array(root, "entries", MAX_ENTRIES, source);
    for (int i = 0; i < entryNodes.size(); i++) {
      entries.add(entry(entryNodes.get(i), source, "/entries/" + i));
    }
    Set<URI> links = new LinkedHashSet<>();
    JsonNode linkNodes = array(root, "links", MAX_LINKS, source);
    for (int i = 0; i < linkNodes.size(); i++) {
      JsonNode link = linkNodes.get(i);
      if (!link.isTextual()) {
        throw invalid(source, "/links/" + i, "must be a string");
      }
      try {
        links.add(CanonicalUrl.resolve(source, link.asText()));
      } catch (IndexRefusedException e) {
        throw invalid(source, "/links/" + i, e.getMessage());
      }
    }
    return new IndexDocument(entries, List.copyOf(links));
  }

  private static JsonNode array(JsonNode root, String field, int max, URI source) {
    JsonNode node = root.get(field);
    if (node == null) {
      return JsonNodeFactory.instance.arrayNode();
    }
    if (!node.isArray()) {
      throw invalid(source, "/" + field, "must be an array");
    }
    if (node.size() > max) {
      throw invalid(source, "/" + field, "has " + node.size() + " items; the limit is " + max);
    }
    return node;
  }

  private static IndexEntry entry(JsonNode node, URI source, String pointer) {
    if (!node.isObject()) {
      throw invalid(source, pointer, "must be an object");
    }
    onlyKnown(node, ENTRY, source, pointer);
    Coordinates coordinates;
    try {
      coordinates = Coordinates.parse(text(node, "coordinates", source, pointer));
    } catch (CapabilityException e) {
      // One grammar for coordinates everywhere: an index may list only what `acquire` would take.
      throw invalid(source, pointer + "/coordinates", e.code() + ": " + e.getMessage());
    }
    String name = text(node, "name", source, pointer);
    if (!NAME.matcher(name).matches()) {
      throw invalid(source, pointer + "/name", "must be a capability name (lower-case letters, digits, '-', single '.')");
    }
    String description = "";
    if (node.has("description")) {
      description = text(node, "description", source, pointer);
      if (description.length() > MAX_DESCRIPTION) {
        throw invalid(source, pointer + "/description", "is longer than " + MAX_DESCRIPTION + " characters");
      }
      if (description.codePoints().anyMatch(cp -> Character.isISOControl(cp) || Character.getType(cp) == Character.FORMAT)) {
        throw invalid(source, pointer + "/description", "contains control or format characters");
      }
    }
    return new IndexEntry(coordinates, name, description, effects(node.get("effects"), source, pointer + "/effects"),
        claims(node.get("claims"), source, pointer + "/claims"));
  }

  private static List<Effect> effects(JsonNode node, URI source, String pointer) {
    if (node == null) {
      return List.of();
    }
    if (!node.isObject()) {
      throw invalid(source, pointer, "must be an object of effect name to scopes");
    }
    TreeSet<Effect> effects = new TreeSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String here = pointer + "/" + Printable.escaped(field.getKey());
      JsonNode scopes = field.getValue();
      if (!scopes.isArray() || scopes.isEmpty() || scopes.size() > MAX_SCOPES) {
        throw invalid(source, here, "must be an array of 1 to " + MAX_SCOPES + " scopes");
      }
      for (int i = 0; i < scopes.size(); i++) {
        if (!scopes.get(i).isTextual()) {
          throw invalid(source, here + "/" + i, "must be a string");
        }
        try {
          effects.add(Effect.of(field.getKey(), scopes.get(i).asText()));
        } catch (CapabilityException e) {
          throw invalid(source, here + "/" + i, e.code() + ": " + e.getMessage());
        }
      }
    }
    return List.copyOf(effects);
  }

  private static Map<String, String> claims(JsonNode node, URI source, String pointer) {
    if (node == null) {
      return Map.of();
    }
    if (!node.isObject() || node.size() > MAX_CLAIMS) {
      throw invalid(source, pointer, "must be an object of at most " + MAX_CLAIMS + " claims");
    }
    Map<String, String> claims = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      JsonNode value = field.getValue();
      if (!CLAIM.matcher(field.getKey()).matches()) {
        throw invalid(source, pointer, "has a claim name outside " + CLAIM.pattern());
      }
      if (!(value.isTextual() || value.isBoolean() || value.isNumber()) || value.asText().length() > 256) {
        throw invalid(source, pointer + "/" + field.getKey(), "must be a string (at most 256 characters), boolean or number");
      }
      claims.put(field.getKey(), Printable.escaped(value.asText()));
    }
    return claims;
  }

  private static String text(JsonNode node, String field, URI source, String pointer) {
    JsonNode value = node.get(field);
    if (value == null) {
      throw invalid(source, pointer + "/" + field, "is missing");
    }
    if (!value.isTextual()) {
      throw invalid(source, pointer + "/" + field, "must be a string");
    }
    return value.asText();
  }

  private static void onlyKnown(JsonNode node, Set<String> known, URI source, String pointer) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        throw invalid(source, pointer, "has unknown member '" + Printable.escaped(name) + "'; known: " + new TreeSet<>(known));
      }
    }
  }

  private static IndexRefusedException invalid(URI source, String pointer, String why) {
    return new IndexRefusedException(
        DiscoveryCodes.INDEX_INVALID, "index " + UrlCredentials.redacted(source) + " at '" + (pointer.isEmpty() ? "/" : pointer) + "' " + why);
  }
}
