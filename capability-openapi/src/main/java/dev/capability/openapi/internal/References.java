package dev.capability.openapi.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.support.Printable;
import dev.capability.openapi.OpenApiCodes;
import dev.capability.openapi.OpenApiRefusedException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Follows {@code $ref}s inside the document ({@code #/components/...} only). An external
 * reference is refused, never fetched; a chain longer than the limit or one that returns to a
 * reference already being followed is refused.
 */
final class References {
  private static final String PREFIX = "#/components/";

  private final JsonNode root;
  private final int maxDepth;
  private final Deque<String> following = new ArrayDeque<>();

  References(JsonNode root, int maxDepth) {
    this.root = root;
    this.maxDepth = maxDepth;
  }

  /** The node {@code ref} names; the caller must {@link #leave()} after converting it. */
  JsonNode enter(JsonNode ref, String where) {
    if (!ref.isTextual()) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_REF_INVALID, where + "/$ref must be a string");
    }
    String text = ref.asText();
    if (!text.startsWith("#")) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_REF_EXTERNAL,
          where + "/$ref '" + Printable.escaped(text) + "' points outside the document; external references are never fetched");
    }
    if (!text.startsWith(PREFIX)) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_REF_INVALID,
          where + "/$ref '" + Printable.escaped(text) + "' must point into " + PREFIX);
    }
    if (following.contains(text)) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_REF_CYCLE,
          where + "/$ref '" + Printable.escaped(text) + "' refers back to itself through " + following);
    }
    if (following.size() >= maxDepth) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_REF_INVALID,
          where + "/$ref '" + Printable.escaped(text) + "' is more than " + maxDepth + " references deep");
    }
    JsonNode target = root;
    for (String token : text.substring(2).split("/", -1)) {
      String decoded = URLDecoder.decode(token.replace("+", "%2B"), StandardCharsets.UTF_8).replace("~1", "/").replace("~0", "~");
      target = target.isObject() ? target.get(decoded) : null;
      if (target == null) {
        throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_REF_INVALID,
            where + "/$ref '" + Printable.escaped(text) + "' names nothing in the document");
      }
    }
    following.push(text);
    return target;
  }

  void leave() {
    following.pop();
  }
}
