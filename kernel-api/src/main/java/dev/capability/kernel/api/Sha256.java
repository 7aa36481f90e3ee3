package dev.capability.kernel.api;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 in lower-case hex, the one digest format every attestation field uses. */
public final class Sha256 {
  private Sha256() {}

  /** A fresh SHA-256 digest; every Java platform must provide one. */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the Java platform lacks SHA-256", e);
    }
  }

  /** Lower-case hex SHA-256 of {@code bytes}. */
  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(newDigest().digest(bytes));
  }

  /** Lower-case hex of a finished digest. */
  public static String hex(MessageDigest digest) {
    return HexFormat.of().formatHex(digest.digest());
  }
}
