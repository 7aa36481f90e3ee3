package dev.capability.acquire;

import java.util.Objects;

/**
 * One file asked of the source.
 *
 * @param location the URL or path asked for
 * @param found whether the source had it
 * @param size bytes read, 0 when not found
 * @param sha256 the hex SHA-256 of the bytes read, empty when not found
 */
public record Fetch(String location, boolean found, long size, String sha256) {
  public Fetch {
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(sha256, "sha256");
    if (size < 0) {
      throw new IllegalArgumentException("size is negative: " + size);
    }
  }
}
