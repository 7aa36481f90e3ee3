package dev.capability.capability.runtime.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EntryPoint;
import dev.capability.capability.runtime.Hook;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A parsed, validated {@code capability.json}. Module paths are normalized (without the leading
 * {@code ./}); {@code modules} maps each to its SRI integrity string.
 */
public record Manifest(
    String name,
    String version,
    EntryPoint entry,
    SortedMap<String, String> modules,
    List<Effect> effects,
    JsonNode inputSchema,
    JsonNode outputSchema,
    Set<Hook> hooks) {
  public Manifest {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(entry, "entry");
    modules = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(modules, "modules")));
    effects = List.copyOf(effects);
    inputSchema = Objects.requireNonNull(inputSchema, "inputSchema").deepCopy();
    outputSchema = Objects.requireNonNull(outputSchema, "outputSchema").deepCopy();
    hooks = Set.copyOf(hooks);
  }
}
