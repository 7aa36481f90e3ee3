package dev.capability.acquire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.Coordinates;
import dev.capability.acquire.spi.CoordinatePattern;
import dev.capability.acquire.spi.OperatorFileFields;
import dev.capability.capability.runtime.support.StrictJson;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPPublicKeyRingCollection;

/**
 * The operator's trusted PGP keys, each bound to the coordinates it may sign. The file is JSON:
 * {@code {"keys":[{"fingerprint":"<40 or 64 hex>","publicKey":"<armored key>" | "publicKeyFile":"<path>",
 * "coordinates":["group:artifact", ...]}]}}. The armored key must hold exactly the key ring whose
 * primary fingerprint is named, so a file cannot smuggle in extra keys.
 */
public final class Keyring {
  private static final int MAX_BYTES = 4 * 1024 * 1024;
  private static final Set<String> ENTRY_FIELDS = Set.of("fingerprint", "publicKey", "publicKeyFile", "coordinates");

  /** One trusted key ring and the coordinates it may sign. */
  public record Entry(String fingerprint, PGPPublicKeyRing ring, List<CoordinatePattern> patterns) {
    public Entry {
      patterns = List.copyOf(patterns);
    }

    public boolean authorizes(Coordinates coordinates) {
      return patterns.stream().anyMatch(pattern -> pattern.matches(coordinates));
    }
  }

  /** A trusted key (primary or subkey) found by its key id, and the entry it belongs to. */
  public record Match(Entry entry, PGPPublicKey key) {}

  private final List<Entry> entries;

  private Keyring(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  public static Keyring empty() {
    return new Keyring(List.of());
  }

  public static Keyring load(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw invalid("cannot read keyring " + file + ": " + e.getMessage());
    }
    return parse(bytes, file.toAbsolutePath().getParent(), file.toString());
  }

  static Keyring parse(byte[] bytes, Path baseDirectory, String what) {
    JsonNode root;
    try {
      root = new StrictJson(MAX_BYTES, 16).parse(bytes, what);
    } catch (StrictJson.StrictJsonException e) {
      throw invalid(e.getMessage());
    }
    if (!root.isObject() || root.size() != 1 || !root.path("keys").isArray()) {
      throw invalid(what + " must be an object with only a \"keys\" array");
    }
    List<Entry> entries = new ArrayList<>();
    int index = 0;
    for (JsonNode node : root.get("keys")) {
      entries.add(entry(node, baseDirectory, what + " keys[" + index++ + "]"));
    }
    return new Keyring(entries);
  }

  public List<Entry> entries() {
    return entries;
  }

  /** Every trusted key with this key id; usually none or one. */
  public List<Match> find(long keyId) {
    List<Match> matches = new ArrayList<>();
    for (Entry entry : entries) {
      PGPPublicKey key = entry.ring().getPublicKey(keyId);
      if (key != null) {
        matches.add(new Match(entry, key));
      }
    }
    return matches;
  }

  public static String fingerprint(PGPPublicKey key) {
    return HexFormat.of().withUpperCase().formatHex(key.getFingerprint());
  }

  private static Entry entry(JsonNode node, Path baseDirectory, String where) {
    if (!node.isObject()) {
      throw invalid(where + " is not an object");
    }
    OperatorFileFields.onlyKnown(node, ENTRY_FIELDS, where, AcquisitionCodes.KEYRING_INVALID);
    String fingerprint = text(node, "fingerprint", where).replace(" ", "").toUpperCase(Locale.ROOT);
    if (!fingerprint.matches("[0-9A-F]{40}|[0-9A-F]{64}")) {
      throw invalid(where + " fingerprint is not 40 or 64 hex digits");
    }
    byte[] armored = armoredKey(node, baseDirectory, where);
    PGPPublicKeyRing ring = ring(armored, fingerprint, where);
    return new Entry(fingerprint, ring, OperatorFileFields.coordinatePatterns(node, where, AcquisitionCodes.KEYRING_INVALID));
  }

  private static byte[] armoredKey(JsonNode node, Path baseDirectory, String where) {
    boolean inline = node.has("publicKey");
    if (inline == node.has("publicKeyFile")) {
      throw invalid(where + " needs exactly one of \"publicKey\" and \"publicKeyFile\"");
    }
    if (inline) {
      return text(node, "publicKey", where).getBytes(StandardCharsets.UTF_8);
    }
    Path file = baseDirectory.resolve(text(node, "publicKeyFile", where));
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw invalid(where + " cannot read " + file + ": " + e.getMessage());
    }
  }

  private static PGPPublicKeyRing ring(byte[] armored, String fingerprint, String where) {
    List<PGPPublicKeyRing> rings = new ArrayList<>();
    try {
      new BcPGPPublicKeyRingCollection(PGPUtil.getDecoderStream(new ByteArrayInputStream(armored))).forEach(rings::add);
    } catch (IOException | PGPException | RuntimeException e) {
      throw invalid(where + " public key cannot be read: " + e.getMessage());
    }
    if (rings.size() != 1) {
      throw invalid(where + " public key holds " + rings.size() + " key rings; exactly one is allowed");
    }
    String actual = fingerprint(rings.get(0).getPublicKey());
    if (!actual.equals(fingerprint)) {
      throw invalid(where + " public key has fingerprint " + actual + ", not " + fingerprint);
    }
    return rings.get(0);
  }

  private static String text(JsonNode node, String field, String where) {
    return OperatorFileFields.text(node, field, where, AcquisitionCodes.KEYRING_INVALID);
  }

  private static AcquisitionRefusedException invalid(String message) {
    return new AcquisitionRefusedException(AcquisitionCodes.KEYRING_INVALID, message);
  }
}
