package dev.capability.ledger.internal;

import dev.capability.kernel.api.Sha256;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Set;

/**
 * The Ed25519 key that signs checkpoints and exported envelopes. The private key file holds the
 * PKCS#8 private key and the X.509 public key as PEM blocks, mode 0600; the public key file holds
 * the public key alone, for verifiers that must not read the private key.
 */
public final class LedgerKey {
  private static final String PRIVATE_LABEL = "PRIVATE KEY";

  private final PrivateKey privateKey;
  private final LedgerPublicKey publicKey;

  private LedgerKey(PrivateKey privateKey, LedgerPublicKey publicKey) {
    this.privateKey = privateKey;
    this.publicKey = publicKey;
  }

  /** The public half. */
  public LedgerPublicKey publicKey() {
    return publicKey;
  }

  /** The Ed25519 signature of {@code data}. */
  public byte[] sign(byte[] data) {
    try {
      Signature signature = Signature.getInstance("Ed25519");
      signature.initSign(privateKey);
      signature.update(data);
      return signature.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the Java platform cannot sign with Ed25519", e);
    }
  }

  /** Loads the key at {@code keyFile}; refuses a file others can read. */
  public static LedgerKey load(Path keyFile) {
    String text;
    try {
      text = Files.readString(keyFile, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_MISSING, "the ledger key " + keyFile + " does not exist; the ledger it signed"
          + " cannot be written without it (restore it, or move the ledger aside to start a new one)");
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "cannot read the ledger key " + keyFile + ": " + e.getMessage(), e);
    }
    requirePrivateMode(keyFile);
    try {
      PrivateKey privateKey = KeyFactory.getInstance("Ed25519")
          .generatePrivate(new PKCS8EncodedKeySpec(Pem.decode(text, PRIVATE_LABEL, keyFile)));
      LedgerPublicKey publicKey = LedgerPublicKey.parse(text, keyFile);
      LedgerKey key = new LedgerKey(privateKey, publicKey);
      byte[] probe = "capability-ledger key check".getBytes(StandardCharsets.US_ASCII);
      if (!publicKey.verify(probe, key.sign(probe))) {
        throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "the private and public keys in " + keyFile + " do not belong together");
      }
      return key;
    } catch (GeneralSecurityException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "the ledger key " + keyFile + " is not an Ed25519 private key", e);
    }
  }

  /**
   * Creates a new key at {@code keyFile} and its public key at {@code publicKeyFile}, or loads
   * the key another process created first. The private file appears whole or not at all.
   */
  public static LedgerKey createOrLoad(Path keyFile, Path publicKeyFile) {
    KeyPair pair;
    try {
      pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the Java platform cannot generate Ed25519 keys", e);
    }
    LedgerPublicKey publicKey = new LedgerPublicKey(pair.getPublic());
    String text = Pem.encode(PRIVATE_LABEL, pair.getPrivate().getEncoded()) + publicKey.pem();
    try {
      SafeFiles.publishNew(keyFile, text.getBytes(StandardCharsets.US_ASCII), true);
    } catch (FileAlreadyExistsException e) {
      LedgerKey existing = load(keyFile);
      existing.writePublicKey(publicKeyFile);
      return existing;
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "cannot create the ledger key " + keyFile + ": " + e.getMessage(), e);
    }
    LedgerKey created = new LedgerKey(pair.getPrivate(), publicKey);
    created.writePublicKey(publicKeyFile);
    return created;
  }

  /** Writes the public key file when it is missing; refuses one that holds another key. */
  public void writePublicKey(Path publicKeyFile) {
    try {
      SafeFiles.publishNew(publicKeyFile, publicKey.pem().getBytes(StandardCharsets.US_ASCII), false);
    } catch (FileAlreadyExistsException e) {
      LedgerPublicKey existing = LedgerPublicKey.load(publicKeyFile);
      if (!existing.keyId().equals(publicKey.keyId())) {
        throw new LedgerException(LedgerCodes.LEDGER_KEY_MISMATCH, "the public key " + publicKeyFile + " (key " + existing.keyId()
            + ") is not the public half of the ledger key (key " + publicKey.keyId() + ")");
      }
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "cannot write the public key " + publicKeyFile + ": " + e.getMessage(), e);
    }
  }

  private static void requirePrivateMode(Path keyFile) {
    Set<PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(keyFile);
    } catch (UnsupportedOperationException e) {
      return;
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "cannot read the mode of " + keyFile + ": " + e.getMessage(), e);
    }
    for (PosixFilePermission p : permissions) {
      if (p != PosixFilePermission.OWNER_READ && p != PosixFilePermission.OWNER_WRITE) {
        throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "the ledger key " + keyFile + " is accessible to others (" + p
            + "); it must be mode 0600");
      }
    }
  }

  /** Lower-case hex SHA-256 of a public key's X.509 encoding: the key id in checkpoints and envelopes. */
  static String keyId(PublicKey key) {
    return Sha256.hex(key.getEncoded());
  }
}
