package dev.capability.capability.runtime.internal.manifest;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** Subresource-integrity strings of one form only: {@code sha512-<base64 of 64 bytes>}. */
public final class Integrity {
  private static final String PREFIX = "sha512-";

  private Integrity() {}

  /** Refuses anything but one well-formed {@code sha512-} integrity string. */
  public static void check(String integrity, String where) {
    if (!integrity.startsWith(PREFIX)) {
      throw refused(where, "must be one 'sha512-' integrity string");
    }
    String encoded = integrity.substring(PREFIX.length());
    byte[] digest;
    try {
      digest = Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      throw refused(where, "is not valid base64");
    }
    if (digest.length != 64 || !Base64.getEncoder().encodeToString(digest).equals(encoded)) {
      throw refused(where, "must encode exactly 64 bytes in padded standard base64");
    }
  }

  /** The integrity string of {@code bytes}. */
  public static String of(byte[] bytes) {
    try {
      return PREFIX + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-512").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the Java platform lacks SHA-512", e);
    }
  }

  /** Compares two integrity strings in time independent of where they differ. */
  public static boolean matches(String expected, byte[] bytes) {
    return MessageDigest.isEqual(
        expected.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        of(bytes).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  }

  private static PackageRefusedException refused(String where, String why) {
    return new PackageRefusedException(CapabilityCodes.MANIFEST_INTEGRITY_INVALID, where + " " + why);
  }
}
