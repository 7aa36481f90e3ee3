package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A package fetched and verified, accepted or refused.
 *
 * @param coordinates the coordinates asked for
 * @param sha256 the SHA-256 of the artifact fetched
 * @param accepted whether it was accepted
 * @param code {@code ACQUIRED}, or why it was refused
 * @param acquisition the acquisition's whole JSON document, which holds the members above, as
 *     plain maps, lists, strings, numbers and booleans
 */
public record AcquisitionRecord(String coordinates, String sha256, boolean accepted, String code, Map<String, @Nullable Object> acquisition) {
  public AcquisitionRecord {
    Records.requireText(coordinates, "coordinates");
    Records.requireText(sha256, "sha256");
    Records.requireText(code, "code");
    acquisition = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(acquisition, "acquisition")));
    if (!coordinates.equals(acquisition.get("coordinates")) || !sha256.equals(acquisition.get("sha256"))
        || !(acquisition.get("decision") instanceof Map<?, ?> decision)
        || !Boolean.valueOf(accepted).equals(decision.get("accepted")) || !code.equals(decision.get("code"))) {
      throw new IllegalArgumentException(
          "the acquisition document must hold the same coordinates, sha256, decision.accepted and decision.code as the record");
    }
  }

  /** The record of an acquisition's JSON document: its {@code coordinates}, {@code sha256} and {@code decision}. */
  public static AcquisitionRecord of(Map<String, @Nullable Object> acquisition) {
    Objects.requireNonNull(acquisition, "acquisition");
    Object decision = acquisition.get("decision");
    if (!(decision instanceof Map<?, ?> d) || !(d.get("accepted") instanceof Boolean accepted) || !(d.get("code") instanceof String code)) {
      throw new IllegalArgumentException("an acquisition document has an object member 'decision' with a boolean 'accepted' and a string 'code'");
    }
    return new AcquisitionRecord(text(acquisition, "coordinates"), text(acquisition, "sha256"), accepted, code, acquisition);
  }

  private static String text(Map<String, Object> document, String name) {
    if (!(document.get(name) instanceof String s)) {
      throw new IllegalArgumentException("an acquisition document has a string member '" + name + "'");
    }
    return s;
  }
}
