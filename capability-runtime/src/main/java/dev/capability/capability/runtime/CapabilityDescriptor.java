package dev.capability.capability.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What inspection learned about a package, without running or loading any of it.
 *
 * @param name the capability's name
 * @param version its exact version
 * @param entry the entry module and class
 * @param moduleDigests each module path (normalized, e.g. {@code lib/hello.jar}) to its verified
 *     {@code sha512-} integrity string
 * @param packageDigest SHA-256 over every file of the package (see {@code docs/capabilities.md})
 * @param effects the declared effects, sorted
 * @param inputSchema the JSON Schema of the input (a copy on every call)
 * @param outputSchema the JSON Schema of the output (a copy on every call)
 * @param hooks the declared lifecycle hooks
 */
public record CapabilityDescriptor(
    String name,
    String version,
    EntryPoint entry,
    SortedMap<String, String> moduleDigests,
    String packageDigest,
    List<Effect> effects,
    JsonNode inputSchema,
    JsonNode outputSchema,
    Set<Hook> hooks) {
  public CapabilityDescriptor {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(entry, "entry");
    moduleDigests = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(moduleDigests, "moduleDigests")));
    Objects.requireNonNull(packageDigest, "packageDigest");
    effects = List.copyOf(effects);
    inputSchema = Objects.requireNonNull(inputSchema, "inputSchema").deepCopy();
    outputSchema = Objects.requireNonNull(outputSchema, "outputSchema").deepCopy();
    hooks = Set.copyOf(hooks);
  }

  @Override
  public JsonNode inputSchema() {
    return inputSchema.deepCopy();
  }

  @Override
  public JsonNode outputSchema() {
    return outputSchema.deepCopy();
  }
}
