package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;

/** The public half of the ledger key: verifies checkpoints and envelopes. */
public final class LedgerPublicKey {
  private static final String LABEL = "PUBLIC KEY";

  private final PublicKey key;
  private final String keyId;

  LedgerPublicKey(PublicKey key) {
    this.key = key;
    this.keyId = LedgerKey.keyId(key);
  }

  /** Lower-case hex SHA-256 of the X.509 SubjectPublicKeyInfo. */
  public String keyId() {
    return keyId;
  }

  /** The key as a PEM {@code PUBLIC KEY} block. */
  public String pem() {
    return Pem.encode(LABEL, key.getEncoded());
  }

  /** Whether {@code signature} is this key's Ed25519 signature of {@code data}. */
  public boolean verify(byte[] data, byte[] signature) {
    try {
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(key);
      verifier.update(data);
      return verifier.verify(signature);
    } catch (java.security.SignatureException e) {
      return false;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the Java platform cannot verify Ed25519 signatures", e);
    }
  }

  /** Reads the public key at {@code file}. */
  public static LedgerPublicKey load(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.US_ASCII), file);
    } catch (NoSuchFileException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_MISSING, "the ledger's public key " + file + " does not exist; checkpoints cannot be verified without it");
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, "cannot read the public key " + file + ": " + e.getMessage(), e);
    }
  }

  static LedgerPublicKey parse(String text, Path file) {
    try {
      PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(Pem.decode(text, LABEL, file)));
      return new LedgerPublicKey(key);
    } catch (GeneralSecurityException e) {
      throw new LedgerException(LedgerCodes.LEDGER_KEY_INVALID, file + " does not hold an Ed25519 public key", e);
    }
  }
}
