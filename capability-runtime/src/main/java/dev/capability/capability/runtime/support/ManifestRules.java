package dev.capability.capability.runtime.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.internal.manifest.Integrity;
import dev.capability.capability.runtime.internal.manifest.ManifestParser;
import dev.capability.capability.runtime.internal.manifest.SchemaGuard;

/**
 * The manifest rules a module that writes capability packages (the OpenAPI import) must meet so
 * that the runtime accepts what it writes: the same limits and checks the runtime's inspection
 * applies, not a copy of them.
 */
public final class ManifestRules {
  /** The largest manifest the runtime reads, in bytes. */
  public static final int MAX_BYTES = ManifestParser.MAX_BYTES;
  /** The deepest nesting of arrays and objects in a manifest, schemas included. */
  public static final int MAX_DEPTH = ManifestParser.MAX_DEPTH;

  private ManifestRules() {}

  /**
   * Checks a JSON Schema as the runtime checks a manifest's input and output schemas: self-contained,
   * bounded in cost, and compiling.
   *
   * @throws dev.capability.kernel.api.CapabilityException naming {@code where} when it does not pass
   */
  public static void checkSchema(JsonNode schema, String where) {
    SchemaGuard.compile(schema, where);
  }

  /** The {@code sha512-...} subresource-integrity string of {@code bytes}, as manifests declare modules. */
  public static String integrity(byte[] bytes) {
    return Integrity.of(bytes);
  }
}
