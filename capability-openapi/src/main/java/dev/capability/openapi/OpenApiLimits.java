package dev.capability.openapi;

/**
 * The bounds of one import.
 *
 * @param maxBytes the largest document read
 * @param maxOperations the most operations imported
 * @param maxRefDepth the most {@code $ref}s followed in a chain
 * @param maxSchemaNodes the most schema nodes one operation's input or output may expand to
 */
public record OpenApiLimits(int maxBytes, int maxOperations, int maxRefDepth, int maxSchemaNodes) {
  public OpenApiLimits {
    if (maxBytes < 1 || maxOperations < 1 || maxRefDepth < 1 || maxSchemaNodes < 1) {
      throw new IllegalArgumentException("every OpenAPI limit must be positive");
    }
  }

  /** 4 MiB, 256 operations, 16 references deep, 10 000 schema nodes. */
  public static OpenApiLimits defaults() {
    return new OpenApiLimits(4 << 20, 256, 16, 10_000);
  }

  public OpenApiLimits withMaxOperations(int value) {
    return new OpenApiLimits(maxBytes, value, maxRefDepth, maxSchemaNodes);
  }

  public OpenApiLimits withMaxSchemaNodes(int value) {
    return new OpenApiLimits(maxBytes, maxOperations, maxRefDepth, value);
  }
}
