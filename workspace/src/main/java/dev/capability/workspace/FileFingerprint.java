package dev.capability.workspace;

import java.util.Objects;
import java.util.Optional;

/**
 * What a regular file was when the run's snapshot was taken, as {@code lstat} saw it, so that a
 * file changed between the snapshot and the shipping fails the launch instead of being shipped
 * under an input tree hash that does not describe it.
 *
 * @param size the size in bytes
 * @param inode the inode number
 * @param modifiedNanos the modification time, nanoseconds since the epoch
 * @param changedNanos the status change time ({@code ctime}), nanoseconds since the epoch
 * @param sha256 the hex SHA-256 of the content where the snapshot hashed it (a file whose
 *     timestamps were too recent for stat data to decide); the shipped content must then match it
 */
public record FileFingerprint(long size, long inode, long modifiedNanos, long changedNanos, Optional<String> sha256) {
  public FileFingerprint {
    Objects.requireNonNull(sha256, "sha256");
    if (size < 0) {
      throw new IllegalArgumentException("size must not be negative, was " + size);
    }
  }
}
