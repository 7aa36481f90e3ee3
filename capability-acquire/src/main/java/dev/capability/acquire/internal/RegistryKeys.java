package dev.capability.acquire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.capability.runtime.support.StrictJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Parsed npm registry keys: key id to ECDSA P-256 public key and optional expiry. */
public final class RegistryKeys {
  /** One trusted registry key. */
  public record Key(String keyId, PublicKey publicKey, Optional<Instant> expires) {}

  private final Map<String, Key> keys;

  private RegistryKeys(Map<String, Key> keys) {
    this.keys = Map.copyOf(keys);
  }

  public static RegistryKeys empty() {
    return new RegistryKeys(Map.of());
  }

  public static RegistryKeys load(Path file) {
    JsonNode root;
    try {
      root = new StrictJson(1024 * 1024, 8).parse(Files.readAllBytes(file), file.toString());
    } catch (IOException e) {
      throw invalid("cannot read npm registry keys " + file + ": " + e.getMessage());
    } catch (StrictJson.StrictJsonException e) {
      throw invalid(e.getMessage());
    }
    if (!root.path("keys").isArray()) {
      throw invalid(file + " must be an object with a \"keys\" array");
    }
    Map<String, Key> keys = new LinkedHashMap<>();
    for (JsonNode node : root.get("keys")) {
      String keyId = node.path("keyid").asText("");
      if (keyId.isEmpty() || keys.containsKey(keyId)) {
        throw invalid(file + " has a key with an empty or repeated \"keyid\"");
      }
      if (!node.path("keytype").asText("").equals("ecdsa-sha2-nistp256") || !node.path("scheme").asText("").equals("ecdsa-sha2-nistp256")) {
        throw invalid(file + " key " + keyId + " is not ecdsa-sha2-nistp256");
      }
      keys.put(keyId, new Key(keyId, publicKey(node.path("key").asText(""), keyId), expires(node.path("expires"), keyId)));
    }
    return new RegistryKeys(keys);
  }

  public Optional<Key> find(String keyId) {
    return Optional.ofNullable(keys.get(keyId));
  }

  public Set<String> keyIds() {
    return keys.keySet();
  }

  private static PublicKey publicKey(String base64, String keyId) {
    try {
      PublicKey key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
      if (!(key instanceof java.security.interfaces.ECPublicKey ec) || ec.getParams().getCurve().getField().getFieldSize() != 256) {
        throw invalid("key " + keyId + " is not a P-256 key");
      }
      return key;
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw invalid("key " + keyId + " is not a base64 SubjectPublicKeyInfo: " + e.getMessage());
    }
  }

  private static Optional<Instant> expires(JsonNode expires, String keyId) {
    if (expires.isMissingNode() || expires.isNull()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(expires.asText()));
    } catch (DateTimeParseException e) {
      throw invalid("key " + keyId + " has an \"expires\" that is not an ISO-8601 instant");
    }
  }

  private static AcquisitionRefusedException invalid(String message) {
    return new AcquisitionRefusedException(AcquisitionCodes.KEYRING_INVALID, message);
  }
}
