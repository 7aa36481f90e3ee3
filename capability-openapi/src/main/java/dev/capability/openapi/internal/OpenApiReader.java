package dev.capability.openapi.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.capability.runtime.support.ManifestRules;
import dev.capability.capability.runtime.support.Printable;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.openapi.ImportOptions;
import dev.capability.openapi.ImportedOperation;
import dev.capability.openapi.OpenApiCodes;
import dev.capability.openapi.OpenApiRefusedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Reads one OpenAPI document into operations; see {@code docs/openapi.md}. */
public final class OpenApiReader {
  private static final int MAX_JSON_DEPTH = 64;
  private static final int MAX_DESCRIPTION = 4_000;
  private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
  private static final List<String> LOCATIONS = List.of("path", "query", "header", "cookie");
  private static final Pattern OPENAPI_VERSION = Pattern.compile("3\\.[01]\\.[0-9]{1,3}");
  private static final Pattern SEMVER =
      Pattern.compile(
          "(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})"
              + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
              + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ImportOptions options;

  public OpenApiReader(ImportOptions options) {
    this.options = options;
  }

  public List<ImportedOperation> read(byte[] bytes) {
    JsonNode root = parse(bytes);
    if (!root.isObject()) {
      throw invalid("/", "must be a JSON object");
    }
    JsonNode openapi = root.get("openapi");
    if (openapi == null || !openapi.isTextual() || !OPENAPI_VERSION.matcher(openapi.asText()).matches()) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_VERSION_UNSUPPORTED,
          "/openapi must be 3.0.x or 3.1.x" + (root.has("swagger") ? "; Swagger 2.0 is not read" : ""));
    }
    String version = capabilityVersion(root);
    ServerUrls.Server server = ServerUrls.choose(root.get("servers"), options.server(), options.access());
    JsonNode paths = root.get("paths");
    if (paths == null) {
      return List.of(); // OpenAPI 3.1 allows documents of components or webhooks only
    }
    if (!paths.isObject()) {
      throw invalid("/paths", "must be an object");
    }
    References references = new References(root, options.limits().maxRefDepth());
    SchemaConverter converter = new SchemaConverter(references, options.limits().maxSchemaNodes());
    List<ImportedOperation> operations = new ArrayList<>();
    Map<String, String> names = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      String path = entry.getKey();
      if (path.startsWith("x-")) {
        continue; // a specification extension, not a path
      }
      String where = "/paths/" + Printable.escaped(path).replace("~", "~0").replace("/", "~1");
      checkPath(path, where);
      JsonNode item = entry.getValue();
      if (!item.isObject()) {
        throw invalid(where, "must be an object");
      }
      if (item.has("$ref")) {
        throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_REF_INVALID, where + "/$ref: path item references are not supported");
      }
      if (item.has("servers")) {
        throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_SERVER_INVALID, where + "/servers: per-path servers are not supported");
      }
      for (String method : METHODS) {
        JsonNode operation = item.get(method);
        if (operation == null) {
          continue;
        }
        if (operations.size() >= options.limits().maxOperations()) {
          throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_TOO_MANY_OPERATIONS,
              "the document has more than " + options.limits().maxOperations() + " operations");
        }
        String here = where + "/" + method;
        if (!operation.isObject()) {
          throw invalid(here, "must be an object");
        }
        if (operation.has("servers")) {
          throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_SERVER_INVALID, here + "/servers: per-operation servers are not supported");
        }
        String name = operation.has("operationId")
            ? OperationNames.fromOperationId(text(operation, "operationId", here), here + "/operationId")
            : OperationNames.fromMethodAndPath(method, path, here);
        String previous = names.putIfAbsent(name, here);
        if (previous != null) {
          throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_NAME_COLLISION,
              here + " and " + previous + " both become capability '" + name + "'");
        }
        converter.resetBudget();
        JsonNode input = input(item, operation, where, here, converter, references);
        JsonNode output = output(operation, here, converter, references);
        checkSchema(input, here + " input");
        checkSchema(output, here + " output");
        operations.add(new ImportedOperation(name, version, description(operation, here), method.toUpperCase(Locale.ROOT),
            path, server.url(), server.connect(), input.toString(), output.toString(),
            requestMediaType(operation, here, references)));
      }
    }
    return List.copyOf(operations);
  }

  private JsonNode parse(byte[] bytes) {
    try {
      return new StrictJson(options.limits().maxBytes(), MAX_JSON_DEPTH).parse(bytes, "OpenAPI document");
    } catch (StrictJson.StrictJsonException e) {
      String code = switch (e.failure()) {
        case TOO_LARGE, TOO_DEEP -> OpenApiCodes.OPENAPI_TOO_LARGE;
        default -> OpenApiCodes.OPENAPI_INVALID;
      };
      throw new OpenApiRefusedException(code, Printable.of(e.getMessage()), e);
    }
  }

  private String capabilityVersion(JsonNode root) {
    String version = options.version().orElseGet(() -> root.path("info").path("version").asText(""));
    if (!SEMVER.matcher(version).matches()) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_CAPABILITY_VERSION_INVALID,
          "capability version '" + Printable.escaped(version) + "' (from "
              + (options.version().isPresent() ? "the options" : "/info/version") + ") is not an exact semantic version;"
              + " give one in the import options (--capability-version on the command line)");
    }
    return version;
  }

  private static void checkPath(String path, String where) {
    if (!path.startsWith("/") || path.length() > 1024 || path.contains("?") || path.contains("#")
        || path.codePoints().anyMatch(cp -> cp <= 0x20 || Character.isISOControl(cp) || Character.getType(cp) == Character.FORMAT)) {
      throw invalid(where, "is not a path template (starts with '/', no query, fragment, spaces or control characters)");
    }
    for (String segment : path.split("/", -1)) {
      if (segment.equals("..") || segment.equals(".")) {
        throw invalid(where, "has a dot segment");
      }
    }
  }

  private JsonNode input(
      JsonNode item, JsonNode operation, String pathWhere, String where, SchemaConverter converter, References references) {
    Map<String, ObjectNode> sections = new LinkedHashMap<>();
    Map<String, ArrayNode> required = new LinkedHashMap<>();
    Map<String, JsonNode> parameters = new LinkedHashMap<>();
    collectParameters(item.get("parameters"), pathWhere + "/parameters", references, parameters);
    collectParameters(operation.get("parameters"), where + "/parameters", references, parameters);
    for (Map.Entry<String, JsonNode> entry : parameters.entrySet()) {
      JsonNode parameter = entry.getValue();
      String here = where + "/parameters/" + Printable.escaped(entry.getKey());
      String location = parameter.get("in").asText();
      String name = parameter.get("name").asText();
      ObjectNode section = sections.computeIfAbsent(location, l -> {
        ObjectNode node = NODES.objectNode();
        node.put("type", "object");
        node.putObject("properties");
        node.put("additionalProperties", false);
        return node;
      });
      JsonNode schema;
      if (parameter.has("schema")) {
        schema = converter.convert(parameter.get("schema"), here + "/schema");
      } else if (parameter.path("content").isObject() && parameter.get("content").size() == 1) {
        JsonNode media = parameter.get("content").elements().next();
        schema = media.has("schema") ? converter.convert(media.get("schema"), here + "/content") : BooleanNode.TRUE;
      } else {
        throw invalid(here, "needs a schema or exactly one content entry");
      }
      ((ObjectNode) section.get("properties")).set(name, schema);
      if (location.equals("path") || parameter.path("required").asBoolean(false)) {
        required.computeIfAbsent(location, l -> NODES.arrayNode()).add(name);
      }
    }
    ObjectNode input = NODES.objectNode();
    input.put("type", "object");
    ObjectNode properties = input.putObject("properties");
    ArrayNode requiredSections = NODES.arrayNode();
    for (String location : LOCATIONS) {
      ObjectNode section = sections.get(location);
      if (section == null) {
        continue;
      }
      if (required.containsKey(location)) {
        section.set("required", required.get(location));
        requiredSections.add(location);
      }
      properties.set(location, section);
    }
    JsonNode body = operation.get("requestBody");
    if (body != null) {
      boolean entered = body.has("$ref");
      JsonNode resolved = entered ? references.enter(body.get("$ref"), where + "/requestBody") : body;
      try {
        properties.set("body", bodySchema(resolved, where + "/requestBody", converter));
        if (resolved.path("required").asBoolean(false)) {
          requiredSections.add("body");
        }
      } finally {
        if (entered) {
          references.leave();
        }
      }
    }
    if (!requiredSections.isEmpty()) {
      input.set("required", requiredSections);
    }
    input.put("additionalProperties", false);
    return input;
  }

  private static void collectParameters(JsonNode list, String where, References references, Map<String, JsonNode> into) {
    if (list == null) {
      return;
    }
    if (!list.isArray()) {
      throw invalid(where, "must be an array");
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode parameter = list.get(i);
      String here = where + "/" + i;
      if (parameter.has("$ref")) {
        parameter = references.enter(parameter.get("$ref"), here);
        references.leave();
      }
      if (!parameter.isObject() || !parameter.path("name").isTextual() || !LOCATIONS.contains(parameter.path("in").asText())) {
        throw invalid(here, "must have a string 'name' and 'in' of " + LOCATIONS);
      }
      String name = parameter.get("name").asText();
      if (name.isEmpty() || name.length() > 256) {
        throw invalid(here + "/name", "must have 1 to 256 characters");
      }
      // an operation's parameter replaces the path item's parameter with the same name and location
      into.put(parameter.get("in").asText() + ":" + name, parameter);
    }
  }

  private static JsonNode bodySchema(JsonNode body, String where, SchemaConverter converter) {
    JsonNode content = body.get("content");
    if (content == null || !content.isObject() || content.isEmpty()) {
      throw invalid(where, "needs a non-empty 'content'");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = content.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> media = it.next();
      if (isJson(media.getKey())) {
        JsonNode schema = media.getValue().get("schema");
        return schema == null ? BooleanNode.TRUE : converter.convert(schema, where + "/content/" + Printable.escaped(media.getKey()));
      }
    }
    ObjectNode text = NODES.objectNode();
    text.put("type", "string");
    return text;
  }

  /** The media type the body schema was taken from: the first JSON one, else the first. */
  private static Optional<String> requestMediaType(JsonNode operation, String where, References references) {
    JsonNode body = operation.get("requestBody");
    if (body == null) {
      return Optional.empty();
    }
    boolean entered = body.has("$ref");
    JsonNode resolved = entered ? references.enter(body.get("$ref"), where + "/requestBody") : body;
    try {
      List<String> types = new ArrayList<>();
      resolved.get("content").fieldNames().forEachRemaining(types::add);
      String chosen = types.stream().filter(OpenApiReader::isJson).findFirst().orElse(types.get(0));
      // sent as the Content-Type header: a printable, bounded header value
      if (chosen.isEmpty() || chosen.length() > 256 || !chosen.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
        throw invalid(where + "/requestBody/content", "has a media type that is not a printable header value");
      }
      return Optional.of(chosen);
    } finally {
      if (entered) {
        references.leave();
      }
    }
  }

  private static JsonNode output(JsonNode operation, String where, SchemaConverter converter, References references) {
    JsonNode responses = operation.get("responses");
    if (responses == null || !responses.isObject()) {
      return BooleanNode.TRUE;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = responses.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> response = it.next();
      if (!response.getKey().matches("2[0-9X][0-9X]")) {
        continue;
      }
      String here = where + "/responses/" + Printable.escaped(response.getKey());
      boolean entered = response.getValue().has("$ref");
      JsonNode resolved = entered ? references.enter(response.getValue().get("$ref"), here) : response.getValue();
      try {
        return responseSchema(resolved, here, converter);
      } finally {
        if (entered) {
          references.leave();
        }
      }
    }
    return BooleanNode.TRUE;
  }

  private static JsonNode responseSchema(JsonNode response, String where, SchemaConverter converter) {
    JsonNode content = response.get("content");
    if (content == null || !content.isObject()) {
      return BooleanNode.TRUE;
    }
    for (Iterator<Map.Entry<String, JsonNode>> media = content.fields(); media.hasNext(); ) {
      Map.Entry<String, JsonNode> type = media.next();
      if (isJson(type.getKey()) && type.getValue().has("schema")) {
        return converter.convert(type.getValue().get("schema"), where);
      }
    }
    return BooleanNode.TRUE;
  }

  private static boolean isJson(String mediaType) {
    String type = mediaType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
  }

  private static String description(JsonNode operation, String where) {
    String text = operation.path("summary").isTextual() ? operation.get("summary").asText() : operation.path("description").asText("");
    if (text.length() > MAX_DESCRIPTION) {
      text = text.substring(0, MAX_DESCRIPTION);
    }
    if (text.codePoints().anyMatch(cp -> Character.getType(cp) == Character.FORMAT)) {
      throw invalid(where + "/summary", "contains format characters (bidirectional overrides, zero-width)");
    }
    return text.replaceAll("\\p{Cntrl}+", " ").trim();
  }

  private static void checkSchema(JsonNode schema, String where) {
    if (depth(schema) + 1 > ManifestRules.MAX_DEPTH) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_SCHEMA_TOO_LARGE,
          where + " nests deeper than a manifest may (" + ManifestRules.MAX_DEPTH + ")");
    }
    if (schema.toString().length() > ManifestRules.MAX_BYTES / 3) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_SCHEMA_TOO_LARGE,
          where + " is larger than a third of the largest manifest (" + ManifestRules.MAX_BYTES + " bytes)");
    }
    try {
      ManifestRules.checkSchema(schema, where);
    } catch (CapabilityException e) {
      throw invalid(where, "does not compile as a JSON Schema: " + e.getMessage());
    }
  }

  private static int depth(JsonNode node) {
    int deepest = 0;
    for (JsonNode child : node) {
      deepest = Math.max(deepest, depth(child));
    }
    return node.isContainerNode() ? deepest + 1 : 0;
  }

  private static String text(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (!value.isTextual()) {
      throw invalid(where + "/" + field, "must be a string");
    }
    return value.asText();
  }

  private static OpenApiRefusedException invalid(String where, String why) {
    return new OpenApiRefusedException(OpenApiCodes.OPENAPI_INVALID, where + " " + why);
  }
}
