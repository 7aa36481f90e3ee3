package dev.capability.kernel.api;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * What was kept of one output stream of a command. Memory is bounded by the output limit,
 * whatever the command writes.
 *
 * @param bytes the bytes kept, at most the limit
 * @param sha256 lower-case hex SHA-256 of {@code bytes}
 * @param truncated true when the command wrote more than was kept
 */
public record CapturedOutput(byte[] bytes, String sha256, boolean truncated) {

  public CapturedOutput {
    bytes = Objects.requireNonNull(bytes, "bytes").clone();
    Objects.requireNonNull(sha256, "sha256");
  }

  /** Captured output whose digest is computed here from {@code bytes}. */
  public static CapturedOutput of(byte[] bytes, boolean truncated) {
    return new CapturedOutput(bytes, Sha256.hex(bytes), truncated);
  }

  /** An empty stream. */
  public static CapturedOutput empty() {
    return of(new byte[0], false);
  }

  /** A copy of the kept bytes. */
  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** Number of bytes kept. */
  public int size() {
    return bytes.length;
  }

  /** The kept bytes decoded as UTF-8, with malformed sequences replaced. */
  public String text() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CapturedOutput that
        && Arrays.equals(bytes, that.bytes)
        && sha256.equals(that.sha256)
        && truncated == that.truncated;
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(bytes) + sha256.hashCode() + (truncated ? 1 : 0);
  }

  @Override
  public String toString() {
    return "CapturedOutput[size=" + bytes.length + ", sha256=" + sha256 + ", truncated=" + truncated + "]";
  }
}
