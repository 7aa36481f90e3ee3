package dev.capability.discovery;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * An entry and where it was found.
 *
 * @param entry what the index lists
 * @param index the canonical URL of the index that lists it
 * @param path the federation path from a seed to {@code index}, both included
 */
public record FoundEntry(IndexEntry entry, URI index, List<URI> path) {
  public FoundEntry {
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(index, "index");
    path = List.copyOf(path);
    if (path.isEmpty() || !path.get(path.size() - 1).equals(index)) {
      throw new IllegalArgumentException("path must end at the index " + index);
    }
  }

  /** Links followed from a seed to reach the index: 0 for a seed. */
  public int depth() {
    return path.size() - 1;
  }
}
