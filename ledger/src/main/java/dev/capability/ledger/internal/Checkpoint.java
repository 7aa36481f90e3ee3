package dev.capability.ledger.internal;

import dev.capability.kernel.api.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A signed statement that the ledger {@code ledgerId} had {@code sequence} records whose last
 * hash was {@code headHash}. The signature is Ed25519 over the canonical JSON of every member
 * but {@code signature}; the line in the checkpoint file is the canonical JSON of all of them.
 */
public record Checkpoint(String ledgerId, long sequence, String headHash, String time, String keyId, String signature) {
  /** The {@code format} member of every checkpoint. */
  public static final String FORMAT = "capability-ledger-checkpoint/1";

  public Checkpoint {
    Objects.requireNonNull(ledgerId, "ledgerId");
    Objects.requireNonNull(headHash, "headHash");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(signature, "signature");
    if (sequence < 0) {
      throw new IllegalArgumentException("sequence must not be negative: " + sequence);
    }
  }

  /** Signs a checkpoint. */
  public static Checkpoint sign(LedgerKey key, String ledgerId, long sequence, String headHash, String time) {
    String keyId = key.publicKey().keyId();
    byte[] signature = key.sign(signedBytes(ledgerId, sequence, headHash, time, keyId));
    return new Checkpoint(ledgerId, sequence, headHash, time, keyId, Base64.getEncoder().encodeToString(signature));
  }

  /** Whether the signature is {@code key}'s over this checkpoint. */
  public boolean signatureValid(LedgerPublicKey key) {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(signature);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return keyId.equals(key.keyId()) && key.verify(signedBytes(ledgerId, sequence, headHash, time, keyId), raw);
  }

  /** The line written to the checkpoint file, without its newline. */
  public String line() {
    Map<String, Object> m = members(ledgerId, sequence, headHash, time, keyId);
    m.put("signature", signature);
    return CanonicalJson.serialize(m);
  }

  private static byte[] signedBytes(String ledgerId, long sequence, String headHash, String time, String keyId) {
    return CanonicalJson.serialize(members(ledgerId, sequence, headHash, time, keyId)).getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, Object> members(String ledgerId, long sequence, String headHash, String time, String keyId) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", FORMAT);
    m.put("ledgerId", ledgerId);
    m.put("sequence", sequence);
    m.put("headHash", headHash);
    m.put("time", time);
    m.put("keyId", keyId);
    return m;
  }
}
