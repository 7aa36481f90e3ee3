package dev.capability.capability.runtime.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EntryPoint;
import dev.capability.capability.runtime.Hook;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.archive.EntryNames;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.kernel.api.CapabilityException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** Parses {@code capability.json} strictly; every refusal names the field. */
public final class ManifestParser {
  /** The largest manifest read. */
  public static final int MAX_BYTES = 256 * 1024;
  /** The deepest nesting of arrays and objects, schemas included. */
  public static final int MAX_DEPTH = 32;

  private static final Set<String> FIELDS =
      Set.of("name", "version", "description", "entry", "modules", "effects", "input", "output", "hooks");
  private static final Set<String> REQUIRED = Set.of("name", "version", "entry", "modules", "input", "output");
  private static final Pattern NAME = Pattern.compile("[a-z0-9](?:[a-z0-9-]|\\.(?!\\.)){0,98}[a-z0-9]|[a-z0-9]");
  private static final Pattern SEMVER =
      Pattern.compile(
          "(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})"
              + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
              + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?");
  private static final Pattern CLASS_NAME =
      Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");
  private static final StrictJson JSON = new StrictJson(MAX_BYTES, MAX_DEPTH);

  private ManifestParser() {}

  public static Manifest parse(byte[] bytes) {
    JsonNode root;
    try {
      root = JSON.parse(bytes, "capability.json");
    } catch (StrictJson.StrictJsonException e) {
      String code =
          switch (e.failure()) {
            case TOO_LARGE -> CapabilityCodes.MANIFEST_TOO_LARGE;
            case BOM -> CapabilityCodes.MANIFEST_BOM;
            case ENCODING -> CapabilityCodes.MANIFEST_ENCODING;
            case DUPLICATE_KEY -> CapabilityCodes.MANIFEST_DUPLICATE_KEY;
            case TOO_DEEP -> CapabilityCodes.MANIFEST_TOO_DEEP;
            case SYNTAX -> CapabilityCodes.MANIFEST_INVALID;
          };
      throw new PackageRefusedException(code, e.getMessage(), e);
    }
    if (!root.isObject()) {
      throw invalid("capability.json", "must be a JSON object");
    }
    for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
      String field = names.next();
      if (!FIELDS.contains(field)) {
        throw new PackageRefusedException(
            CapabilityCodes.MANIFEST_UNKNOWN_FIELD, "capability.json has unknown field '" + ScopeGrammar.printable(field) + "'");
      }
    }
    for (String field : new TreeSet<>(REQUIRED)) {
      if (!root.has(field)) {
        throw new PackageRefusedException(CapabilityCodes.MANIFEST_MISSING_FIELD, "capability.json lacks '" + field + "'");
      }
    }
    String name = text(root, "name");
    if (!NAME.matcher(name).matches()) {
      throw invalid("name", "must be lower-case letters, digits, '-' and single '.', 1 to 100 characters");
    }
    if (root.has("description")) {
      text(root, "description");
    }
    String version = text(root, "version");
    if (!SEMVER.matcher(version).matches()) {
      throw new PackageRefusedException(
          CapabilityCodes.MANIFEST_VERSION_INVALID,
          "version '" + ScopeGrammar.printable(version) + "' must be one exact semantic version (no ranges)");
    }
    SortedMap<String, String> modules = modules(root.get("modules"));
    EntryPoint entry = entry(root.get("entry"), modules);
    List<Effect> effects = effects(root.get("effects"));
    SchemaGuard.compile(root.get("input"), "input");
    SchemaGuard.compile(root.get("output"), "output");
    return new Manifest(name, version, entry, modules, effects, root.get("input"), root.get("output"), hooks(root.get("hooks")));
  }

  /**
   * Normalizes a manifest module path: {@code ./lib/a.jar} becomes {@code lib/a.jar}.
   *
   * @throws PackageRefusedException {@link CapabilityCodes#MODULE_PATH_ESCAPES} for a path that
   *     leaves the package root
   */
  public static String modulePath(String path) {
    if (!path.startsWith("./")) {
      throw invalidEntry("module path '" + ScopeGrammar.printable(path) + "' must start with './'");
    }
    String rest = path.substring(2);
    try {
      return EntryNames.check(rest);
    } catch (PackageRefusedException e) {
      String code =
          e.code().equals(CapabilityCodes.ARCHIVE_PATH_TRAVERSAL)
              ? CapabilityCodes.MODULE_PATH_ESCAPES
              : CapabilityCodes.MANIFEST_ENTRY_INVALID;
      throw new PackageRefusedException(code, "module path '" + ScopeGrammar.printable(path) + "': " + e.getMessage(), e);
    }
  }

  private static SortedMap<String, String> modules(JsonNode node) {
    if (!node.isObject() || node.isEmpty()) {
      throw invalid("modules", "must be a non-empty object of './path': 'sha512-...'");
    }
    SortedMap<String, String> modules = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String path = modulePath(field.getKey());
      if (!path.endsWith(".jar")) {
        throw invalidEntry("module '" + path + "' must be a .jar file");
      }
      if (!field.getValue().isTextual()) {
        throw invalid("modules/" + field.getKey(), "must be an integrity string");
      }
      Integrity.check(field.getValue().asText(), "modules/" + field.getKey());
      if (modules.put(path, field.getValue().asText()) != null) {
        throw new PackageRefusedException(CapabilityCodes.MANIFEST_DUPLICATE_KEY, "module '" + path + "' is listed twice");
      }
    }
    return modules;
  }

  private static EntryPoint entry(JsonNode node, SortedMap<String, String> modules) {
    if (!node.isObject() || node.size() != 2 || !node.has("module") || !node.has("class")) {
      throw invalidEntry("entry must be an object with exactly 'module' and 'class'");
    }
    String module = modulePath(text(node, "module"));
    if (!modules.containsKey(module)) {
      throw invalidEntry("entry module './" + module + "' is not listed under modules");
    }
    String className = text(node, "class");
    if (!CLASS_NAME.matcher(className).matches() || className.length() > 512) {
      throw invalidEntry("entry class '" + ScopeGrammar.printable(className) + "' is not a Java binary class name");
    }
    return new EntryPoint(module, className);
  }

  private static List<Effect> effects(JsonNode node) {
    if (node == null) {
      return List.of();
    }
    if (!node.isObject()) {
      throw invalid("effects", "must be an object of effect name to a list of scopes");
    }
    Set<Effect> effects = new TreeSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      JsonNode scopes = field.getValue();
      if (!scopes.isArray() || scopes.isEmpty()) {
        throw new CapabilityException(
            CapabilityCodes.EFFECT_SCOPE_INVALID,
            "effects/" + ScopeGrammar.printable(field.getKey()) + " must be a non-empty list of scopes");
      }
      for (JsonNode scope : scopes) {
        if (!scope.isTextual()) {
          throw new CapabilityException(
              CapabilityCodes.EFFECT_SCOPE_INVALID, "effects/" + ScopeGrammar.printable(field.getKey()) + " holds a non-string scope");
        }
        if (!effects.add(Effect.of(field.getKey(), scope.asText()))) {
          throw invalid("effects/" + field.getKey(), "lists scope '" + ScopeGrammar.printable(scope.asText()) + "' twice");
        }
      }
    }
    return new ArrayList<>(effects);
  }

  private static Set<Hook> hooks(JsonNode node) {
    if (node == null) {
      return Set.of();
    }
    if (!node.isArray()) {
      throw invalid("hooks", "must be a list of hook names");
    }
    Set<Hook> hooks = EnumSet.noneOf(Hook.class);
    for (JsonNode hook : node) {
      Hook known =
          Hook.fromId(hook.asText(""))
              .filter(h -> hook.isTextual())
              .orElseThrow(() -> invalid("hooks", "holds '" + ScopeGrammar.printable(hook.toString()) + "'; known: plan, verify, rollback"));
      if (!hooks.add(known)) {
        throw invalid("hooks", "lists '" + known.id() + "' twice");
      }
    }
    return hooks;
  }

  private static String text(JsonNode parent, String field) {
    JsonNode node = parent.get(field);
    if (node == null || !node.isTextual()) {
      throw invalid(field, "must be a string");
    }
    return node.asText();
  }

  private static PackageRefusedException invalid(String field, String why) {
    return new PackageRefusedException(CapabilityCodes.MANIFEST_INVALID, "capability.json " + field + " " + why);
  }

  private static PackageRefusedException invalidEntry(String why) {
    return new PackageRefusedException(CapabilityCodes.MANIFEST_ENTRY_INVALID, "capability.json " + why);
  }
}
