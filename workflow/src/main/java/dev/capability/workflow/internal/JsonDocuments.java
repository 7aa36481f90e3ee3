package dev.capability.workflow.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.capability.workflow.WorkflowException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict reading of one JSON document: duplicate keys, comments, trailing content, unknown
 * members and coerced types are refused with the document's code and the JSON pointer (or line
 * and column) of what is wrong.
 */
public final class JsonDocuments {
  /** The largest document read, in characters. */
  public static final int MAX_CHARS = 256 * 1024;

  static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
      .build();

  private final String code;
  private final String what;

  JsonDocuments(String code, String what) {
    this.code = code;
    this.what = what;
  }

  /** The tree of {@code json}, refused when it is not exactly one JSON value. */
  JsonNode parse(String json) {
    if (json.length() > MAX_CHARS) {
      throw new WorkflowException(code, "the " + what + " is longer than " + MAX_CHARS + " characters");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String position = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new WorkflowException(code, "the " + what + " is not valid JSON" + position + ": " + e.getOriginalMessage(), e);
    }
    if (root == null || root.isMissingNode()) {
      throw new WorkflowException(code, "the " + what + " is empty");
    }
    return root;
  }

  /** The tree of plain maps, lists, strings, numbers and booleans. */
  static JsonNode tree(Map<String, Object> value) {
    return MAPPER.valueToTree(value);
  }

  WorkflowException invalid(String pointer, String message) {
    return new WorkflowException(code, "the " + what + " at " + (pointer.isEmpty() ? "the top level" : pointer) + ": " + message);
  }

  JsonNode object(JsonNode node, String pointer, Set<String> members, Set<String> required) {
    if (node == null || !node.isObject()) {
      throw invalid(pointer, "expected an object");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!members.contains(name)) {
        throw invalid(pointer + "/" + escape(name), "unknown member \"" + name + "\"; known: " + new TreeSet<>(members));
      }
    }
    for (String name : new TreeSet<>(required)) {
      if (!node.has(name)) {
        throw invalid(pointer + "/" + name, "the member \"" + name + "\" is required");
      }
    }
    return node;
  }

  String text(JsonNode node, String pointer, int maxLength, boolean mayBeEmpty) {
    if (node == null || !node.isTextual()) {
      throw invalid(pointer, "expected a string");
    }
    String text = node.textValue();
    if (text.isEmpty() && !mayBeEmpty) {
      throw invalid(pointer, "expected a non-empty string");
    }
    if (text.length() > maxLength) {
      throw invalid(pointer, "longer than " + maxLength + " characters");
    }
    return text;
  }

  boolean bool(JsonNode node, String pointer) {
    if (node == null || !node.isBoolean()) {
      throw invalid(pointer, "expected true or false");
    }
    return node.booleanValue();
  }

  /** An array of distinct strings, each non-empty and at most {@code maxLength} characters. */
  List<String> texts(JsonNode node, String pointer, boolean mayBeEmpty, int maxItems, int maxLength) {
    if (node == null || !node.isArray()) {
      throw invalid(pointer, "expected an array of strings");
    }
    if (node.isEmpty() && !mayBeEmpty) {
      throw invalid(pointer, "expected at least one entry");
    }
    if (node.size() > maxItems) {
      throw invalid(pointer, "more than " + maxItems + " entries");
    }
    List<String> texts = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < node.size(); i++) {
      String text = text(node.get(i), pointer + "/" + i, maxLength, false);
      if (!seen.add(text)) {
        throw invalid(pointer + "/" + i, "\"" + text + "\" is listed twice");
      }
      texts.add(text);
    }
    return texts;
  }

  void version(JsonNode root) {
    JsonNode version = root.get("version");
    if (version == null || !version.isIntegralNumber() || !version.canConvertToInt() || version.intValue() != 1) {
      throw invalid("/version", "expected \"version\": 1");
    }
  }

  /** {@code name} as one JSON pointer token. */
  static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
