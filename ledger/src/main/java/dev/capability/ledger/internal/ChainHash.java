package dev.capability.ledger.internal;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The chain: record {@code n}'s hash is {@code SHA-256(h(n-1) || C(n))}, where {@code h(n-1)} is
 * the previous record's hash as 32 raw bytes and {@code C(n)} is the RFC 8785 canonical JSON of
 * {@code {"body": <body>, "kind": <kind>, "recordedAt": <time>, "seq": <n>}}. Record 1 chains to
 * the genesis hash, the SHA-256 of the canonical JSON of {@code {"format":
 * "capability-ledger/1", "ledgerId": <id>}}, so records cannot be moved between ledgers.
 *
 * <p>Since the body is stored canonical and the envelope's member names sort as written, the
 * envelope is built by concatenation, byte for byte what {@link CanonicalJson} would produce.
 */
public final class ChainHash {
  /** The format name in the genesis hash; it changes only with the hashing scheme. */
  public static final String FORMAT = "capability-ledger/1";

  private static final byte[] BODY_PREFIX = "{\"body\":".getBytes(StandardCharsets.US_ASCII);
  private static final HexFormat HEX = HexFormat.of();

  private ChainHash() {}

  /** The hash record 1 chains to. */
  public static String genesis(String ledgerId) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", FORMAT);
    m.put("ledgerId", ledgerId);
    return CanonicalJson.sha256(m);
  }

  /** Lower-case hex hash of a record whose canonical body, as UTF-8, is {@code body}. */
  public static String hash(MessageDigest digest, String prevHash, long seq, String kind, String recordedAt, byte[] body) {
    digest.reset();
    digest.update(HEX.parseHex(prevHash));
    digest.update(BODY_PREFIX);
    digest.update(body);
    digest.update(envelopeSuffix(seq, kind, recordedAt));
    return HEX.formatHex(digest.digest());
  }

  /** Hashes records one after another with one digest; not thread-safe. */
  public static final class Hasher {
    private final MessageDigest digest = newDigest();

    /** The raw hash of a record, given its predecessor's raw hash. */
    public byte[] hash(byte[] prevRaw, long seq, String kind, String recordedAt, byte[] body) {
      digest.reset();
      digest.update(prevRaw);
      digest.update(BODY_PREFIX);
      digest.update(body);
      digest.update(envelopeSuffix(seq, kind, recordedAt));
      return digest.digest();
    }
  }

  /** The canonical bytes {@code C(n)} of a record, for documentation and tests. */
  public static byte[] envelope(long seq, String kind, String recordedAt, byte[] body) {
    byte[] suffix = envelopeSuffix(seq, kind, recordedAt);
    byte[] out = new byte[BODY_PREFIX.length + body.length + suffix.length];
    System.arraycopy(BODY_PREFIX, 0, out, 0, BODY_PREFIX.length);
    System.arraycopy(body, 0, out, BODY_PREFIX.length, body.length);
    System.arraycopy(suffix, 0, out, BODY_PREFIX.length + body.length, suffix.length);
    return out;
  }

  /** A fresh digest for {@link #hash}. */
  public static MessageDigest newDigest() {
    return Sha256.newDigest();
  }

  private static byte[] envelopeSuffix(long seq, String kind, String recordedAt) {
    return (",\"kind\":" + jsonString(kind) + ",\"recordedAt\":" + jsonString(recordedAt) + ",\"seq\":" + seq + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The canonical JSON string literal of {@code s}. Kinds and times the ledger writes are plain
   * printable ASCII, which RFC 8785 copies as is; anything else (only a tampered row has it) goes
   * through {@link CanonicalJson}, so the bytes are canonical either way.
   */
  private static String jsonString(String s) {
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\') {
        return CanonicalJson.serialize(s);
      }
    }
    return "\"" + s + "\"";
  }
}
