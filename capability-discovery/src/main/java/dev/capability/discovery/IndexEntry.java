package dev.capability.discovery;

import dev.capability.acquire.Coordinates;
import dev.capability.capability.runtime.Effect;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One capability an index lists. Every field is what the index claims, nothing more.
 *
 * @param coordinates where the package would be acquired from
 * @param name the capability name (the manifest's name grammar)
 * @param description free text, possibly empty
 * @param effects the effects the index says the capability declares, validated against the
 *     vocabulary; the manifest acquired later is what counts
 * @param claims other assertions the index makes (for example {@code verified: true}), kept as
 *     text so they can be shown; they grant nothing and change no ranking
 */
public record IndexEntry(
    Coordinates coordinates, String name, String description, List<Effect> effects, Map<String, String> claims) {
  public IndexEntry {
    Objects.requireNonNull(coordinates, "coordinates");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    effects = List.copyOf(effects);
    claims = Map.copyOf(claims);
  }
}
