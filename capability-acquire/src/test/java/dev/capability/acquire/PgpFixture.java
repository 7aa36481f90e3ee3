package dev.capability.acquire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Date;
import java.util.HexFormat;
import java.util.Iterator;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.CompressionAlgorithmTags;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.openpgp.PGPCompressedDataGenerator;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;

/** A real Ed25519 PGP key made at test time, its armored public key ring, and detached signatures. */
public final class PgpFixture {
  private final PGPKeyPair primary;
  private final PGPKeyPair pair;
  private final PGPPublicKeyRing publicRing;

  /** {@code pair} is the key {@link #sign} signs with: the primary key, or a subkey. */
  private PgpFixture(PGPKeyPair primary, PGPKeyPair pair, PGPPublicKeyRing publicRing) {
    this.primary = primary;
    this.pair = pair;
    this.publicRing = publicRing;
  }

  public static PgpFixture generate(String userId) {
    return generate(userId, new Date(), 0);
  }

  /** A key created at {@code created} that expires {@code validSeconds} later (0: never). */
  static PgpFixture generate(String userId, Date created, long validSeconds) {
    return generate(userId, created, validSeconds, 0);
  }

  /** A key whose self-signature carries the key flags {@code keyFlags} (0: none, as older keys). */
  static PgpFixture generate(String userId, int keyFlags) {
    return generate(userId, new Date(), 0, keyFlags);
  }

  private static PgpFixture generate(String userId, Date created, long validSeconds, int keyFlags) {
    try {
      Ed25519KeyPairGenerator generator = new Ed25519KeyPairGenerator();
      generator.init(new Ed25519KeyGenerationParameters(new SecureRandom()));
      PGPKeyPair pair = new BcPGPKeyPair(PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.EDDSA_LEGACY, generator.generateKeyPair(), created);
      PGPSignatureSubpacketGenerator selfSignature = new PGPSignatureSubpacketGenerator();
      if (validSeconds > 0) {
        selfSignature.setKeyExpirationTime(true, validSeconds);
      }
      if (keyFlags != 0) {
        selfSignature.setKeyFlags(false, keyFlags);
      }
      PGPKeyRingGenerator rings = new PGPKeyRingGenerator(
          PGPSignature.POSITIVE_CERTIFICATION, pair, userId,
          new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1), selfSignature.generate(), null,
          new BcPGPContentSignerBuilder(pair.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256), null);
      return new PgpFixture(pair, pair, rings.generatePublicKeyRing());
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  /** How a signing subkey is attached to its primary key. */
  enum Subkey {
    /** Bound for signing, with a back signature: what GnuPG makes. */
    BOUND,
    /** Its binding signature was stripped, as anyone can do to a published key ring. */
    UNBOUND,
    /** Bound, but for encryption only. */
    NOT_FOR_SIGNING,
    /** Bound for signing, but without the subkey's back signature. */
    NOT_CROSS_CERTIFIED
  }

  /** A primary key with one subkey shaped as {@code shape}; {@link #sign} signs with the subkey. */
  static PgpFixture withSubkey(String userId, Subkey shape) {
    try {
      PGPKeyPair primary = ed25519(new Date());
      PGPKeyPair subkey = ed25519(new Date());
      PGPKeyRingGenerator rings = new PGPKeyRingGenerator(
          PGPSignature.POSITIVE_CERTIFICATION, primary, userId,
          new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1), null, null,
          new BcPGPContentSignerBuilder(primary.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256), null);
      PGPSignatureSubpacketGenerator flags = new PGPSignatureSubpacketGenerator();
      flags.setKeyFlags(false, shape == Subkey.NOT_FOR_SIGNING ? KeyFlags.ENCRYPT_COMMS | KeyFlags.ENCRYPT_STORAGE : KeyFlags.SIGN_DATA);
      BcPGPContentSignerBuilder backSignature = shape == Subkey.NOT_CROSS_CERTIFIED
          ? null
          : new BcPGPContentSignerBuilder(subkey.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256);
      rings.addSubKey(subkey, flags.generate(), null, backSignature);
      PGPPublicKeyRing ring = rings.generatePublicKeyRing();
      if (shape == Subkey.UNBOUND) {
        ring = PGPPublicKeyRing.insertPublicKey(ring, withoutSignatures(ring.getPublicKey(subkey.getKeyID())));
      }
      return new PgpFixture(primary, subkey, ring);
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * This key ring with {@code other}'s signing subkey appended, binding and all, as an attacker
   * could append it to a published ring; {@link #sign} signs with that subkey.
   */
  PgpFixture withSubkeyOf(PgpFixture other) {
    PGPPublicKey appended = other.publicRing.getPublicKey(other.pair.getKeyID());
    return new PgpFixture(primary, other.pair, PGPPublicKeyRing.insertPublicKey(publicRing, appended));
  }

  /** This key ring with a revocation of the primary key, made by the primary key. */
  PgpFixture revoked() {
    try {
      PGPSignatureGenerator generator = generator(primary);
      generator.init(PGPSignature.KEY_REVOCATION, primary.getPrivateKey());
      PGPPublicKey key = PGPPublicKey.addCertification(publicRing.getPublicKey(), generator.generateCertification(publicRing.getPublicKey()));
      return new PgpFixture(primary, pair, PGPPublicKeyRing.insertPublicKey(publicRing, key));
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * This key ring with a signature appended that claims to be by its primary key but was made by
   * {@code forger}: a revocation ({@code PGPSignature.KEY_REVOCATION}), or a newer self-certification of
   * the user ID without any expiry ({@code PGPSignature.POSITIVE_CERTIFICATION}).
   */
  PgpFixture withForgedSignature(int type, PgpFixture forger) {
    try {
      PGPPublicKey key = publicRing.getPublicKey();
      PGPPrivateKey claimingThisKey = new PGPPrivateKey(
          key.getKeyID(), forger.primary.getPrivateKey().getPublicKeyPacket(), forger.primary.getPrivateKey().getPrivateKeyDataPacket());
      PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
      hashed.setSignatureCreationTime(true, new Date());
      hashed.setIssuerKeyID(false, key.getKeyID());
      PGPSignatureGenerator generator = generator(forger.primary);
      generator.init(type, claimingThisKey);
      generator.setHashedSubpackets(hashed.generate());
      PGPPublicKey forged = type == PGPSignature.KEY_REVOCATION
          ? PGPPublicKey.addCertification(key, generator.generateCertification(key))
          : PGPPublicKey.addCertification(key, key.getUserIDs().next(), generator.generateCertification(key.getUserIDs().next(), key));
      return new PgpFixture(primary, pair, PGPPublicKeyRing.insertPublicKey(publicRing, forged));
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  /** This key ring with a newer binding of its signing subkey, made at {@code at}, for encryption only. */
  PgpFixture reboundForEncryptionOnly(Date at) {
    try {
      PGPPublicKey subkey = publicRing.getPublicKey(pair.getKeyID());
      PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
      hashed.setSignatureCreationTime(true, at);
      hashed.setKeyFlags(false, KeyFlags.ENCRYPT_COMMS | KeyFlags.ENCRYPT_STORAGE);
      PGPSignatureGenerator generator = generator(primary);
      generator.init(PGPSignature.SUBKEY_BINDING, primary.getPrivateKey());
      generator.setHashedSubpackets(hashed.generate());
      PGPPublicKey rebound = PGPPublicKey.addCertification(subkey, generator.generateCertification(publicRing.getPublicKey(), subkey));
      return new PgpFixture(primary, pair, PGPPublicKeyRing.insertPublicKey(publicRing, rebound));
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PGPSignatureGenerator generator(PGPKeyPair signer) {
    return new PGPSignatureGenerator(new BcPGPContentSignerBuilder(signer.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256), signer.getPublicKey());
  }

  private static PGPPublicKey withoutSignatures(PGPPublicKey key) {
    PGPPublicKey stripped = key;
    for (Iterator<PGPSignature> signatures = key.getSignatures(); signatures.hasNext(); ) {
      stripped = PGPPublicKey.removeCertification(stripped, signatures.next());
    }
    return stripped;
  }

  private static PGPKeyPair ed25519(Date created) throws PGPException {
    Ed25519KeyPairGenerator generator = new Ed25519KeyPairGenerator();
    generator.init(new Ed25519KeyGenerationParameters(new SecureRandom()));
    return new BcPGPKeyPair(PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.EDDSA_LEGACY, generator.generateKeyPair(), created);
  }

  public String fingerprint() {
    return HexFormat.of().withUpperCase().formatHex(publicRing.getPublicKey().getFingerprint());
  }

  public String armoredPublicKey() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ArmoredOutputStream armored = new ArmoredOutputStream(bytes)) {
      publicRing.encode(armored);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toString(StandardCharsets.US_ASCII);
  }

  /** A detached, armored binary-document signature over {@code data}. */
  public byte[] sign(byte[] data) {
    return sign(data, HashAlgorithmTags.SHA256);
  }

  /** The same signature wrapped in a compressed-data packet. */
  byte[] signCompressed(byte[] data) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ArmoredOutputStream armored = new ArmoredOutputStream(bytes)) {
        PGPCompressedDataGenerator compressor = new PGPCompressedDataGenerator(CompressionAlgorithmTags.ZLIB);
        try (OutputStream compressed = compressor.open(armored)) {
          PGPSignatureGenerator generator = new PGPSignatureGenerator(
              new BcPGPContentSignerBuilder(pair.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256), pair.getPublicKey());
          generator.init(PGPSignature.BINARY_DOCUMENT, pair.getPrivateKey());
          generator.update(data);
          generator.generate().encode(compressed);
        }
      }
      return bytes.toByteArray();
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  byte[] sign(byte[] data, int hashAlgorithm) {
    return sign(data, hashAlgorithm, new Date());
  }

  /** A detached signature whose creation time says {@code at}. */
  byte[] sign(byte[] data, Date at) {
    return sign(data, HashAlgorithmTags.SHA256, at);
  }

  private byte[] sign(byte[] data, int hashAlgorithm, Date at) {
    try {
      PGPSignatureGenerator generator = new PGPSignatureGenerator(
          new BcPGPContentSignerBuilder(pair.getPublicKey().getAlgorithm(), hashAlgorithm), pair.getPublicKey());
      generator.init(PGPSignature.BINARY_DOCUMENT, pair.getPrivateKey());
      PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
      hashed.setSignatureCreationTime(true, at);
      hashed.setIssuerKeyID(false, pair.getKeyID());
      generator.setHashedSubpackets(hashed.generate());
      generator.update(data);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ArmoredOutputStream armored = new ArmoredOutputStream(bytes)) {
        generator.generate().encode(armored);
      }
      return bytes.toByteArray();
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
