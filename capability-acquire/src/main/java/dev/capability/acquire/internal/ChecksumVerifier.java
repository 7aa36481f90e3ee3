package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.Check;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares repository checksum files with the digests of the bytes actually received. Only
 * SHA-512 and SHA-256 count as integrity; SHA-1 and MD5 are still compared when present, because a
 * mismatch in any of them means the bytes are not the ones published.
 */
final class ChecksumVerifier {
  private static final Map<String, Integer> HEX_LENGTH = Map.of("sha512", 128, "sha256", 64, "sha1", 40, "md5", 32);
  private static final List<String> STRONG = List.of("sha512", "sha256");

  private ChecksumVerifier() {}

  /**
   * @param published checksum file contents by algorithm, for the files the source had
   * @param actual hex digests of the received bytes by algorithm
   */
  static Check verify(Map<String, byte[]> published, Map<String, String> actual, String what) {
    List<String> matched = new ArrayList<>();
    for (String algorithm : ContentStore.ALGORITHMS) {
      byte[] file = published.get(algorithm);
      if (file == null) {
        continue;
      }
      String expected = firstToken(file);
      if (!expected.matches("[0-9a-f]{" + HEX_LENGTH.get(algorithm) + "}")) {
        return Check.failed(AcquisitionCodes.CHECKSUM_MALFORMED, "the " + algorithm + " file of " + what + " does not hold a " + algorithm + " digest");
      }
      if (!expected.equals(actual.get(algorithm))) {
        return Check.failed(
            AcquisitionCodes.CHECKSUM_MISMATCH,
            "the " + algorithm + " of " + what + " is " + actual.get(algorithm) + " but the repository publishes " + expected);
      }
      matched.add(algorithm);
    }
    List<String> strong = matched.stream().filter(STRONG::contains).toList();
    if (!strong.isEmpty()) {
      return Check.verified("the repository's checksum files match: " + String.join(", ", matched));
    }
    if (!matched.isEmpty()) {
      return Check.failed(
          AcquisitionCodes.CHECKSUM_WEAK_ONLY,
          "the repository publishes only " + String.join(", ", matched) + " for " + what + "; SHA-256 or SHA-512 is required");
    }
    return Check.failed(AcquisitionCodes.CHECKSUM_MISSING, "the repository publishes no checksum for " + what + "; SHA-256 or SHA-512 is required");
  }

  /** Maven checksum files hold the hex digest, sometimes followed by the file name. */
  private static String firstToken(byte[] file) {
    String text = new String(file, StandardCharsets.US_ASCII).strip();
    return text.split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
  }
}
