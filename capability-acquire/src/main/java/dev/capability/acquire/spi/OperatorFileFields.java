package dev.capability.acquire.spi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.acquire.AcquisitionRefusedException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The field readers the operator's files share (keyring, Sigstore trust, trust policy): each
 * mistake is refused with the file's own code and names where it is. Public for the plug-ins
 * that read such files (the Sigstore verifier's trust file).
 */
public final class OperatorFileFields {
  private OperatorFileFields() {}

  /** Refuses any field of {@code node} that is not in {@code known}. */
  public static void onlyKnown(JsonNode node, Set<String> known, String where, String code) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        throw new AcquisitionRefusedException(code, where + " has the unknown field \"" + name + "\"");
      }
    }
  }

  /** A non-empty string field. */
  public static String text(JsonNode node, String field, String where, String code) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new AcquisitionRefusedException(code, where + " needs the string \"" + field + "\"");
    }
    return value.asText();
  }

  /** The non-empty {@code "coordinates"} array of group:artifact patterns. */
  public static List<CoordinatePattern> coordinatePatterns(JsonNode node, String where, String code) {
    JsonNode patterns = node.path("coordinates");
    if (!patterns.isArray() || patterns.isEmpty()) {
      throw new AcquisitionRefusedException(code, where + " needs a non-empty \"coordinates\" array of group:artifact patterns");
    }
    List<CoordinatePattern> parsed = new ArrayList<>();
    for (JsonNode pattern : patterns) {
      if (!pattern.isTextual()) {
        throw new AcquisitionRefusedException(code, where + " coordinates must be strings");
      }
      parsed.add(CoordinatePattern.parse(pattern.asText(), code));
    }
    return parsed;
  }
}
