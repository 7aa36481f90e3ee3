package dev.capability.capability.runtime.acquire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Date;
import java.util.HexFormat;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.CompressionAlgorithmTags;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.openpgp.PGPCompressedDataGenerator;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;

/** A real Ed25519 PGP key made at test time, its armored public key ring, and detached signatures. */
final class PgpFixture {
  private final PGPKeyPair pair;
  private final PGPPublicKeyRing publicRing;

  private PgpFixture(PGPKeyPair pair, PGPPublicKeyRing publicRing) {
    this.pair = pair;
    this.publicRing = publicRing;
  }

  static PgpFixture generate(String userId) {
    return generate(userId, new Date(), 0);
  }

  /** A key created at {@code created} that expires {@code validSeconds} later (0: never). */
  static PgpFixture generate(String userId, Date created, long validSeconds) {
    try {
      Ed25519KeyPairGenerator generator = new Ed25519KeyPairGenerator();
      generator.init(new Ed25519KeyGenerationParameters(new SecureRandom()));
      PGPKeyPair pair = new BcPGPKeyPair(PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.EDDSA_LEGACY, generator.generateKeyPair(), created);
      PGPSignatureSubpacketGenerator selfSignature = new PGPSignatureSubpacketGenerator();
      if (validSeconds > 0) {
        selfSignature.setKeyExpirationTime(true, validSeconds);
      }
      PGPKeyRingGenerator rings = new PGPKeyRingGenerator(
          PGPSignature.POSITIVE_CERTIFICATION, pair, userId,
          new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1), selfSignature.generate(), null,
          new BcPGPContentSignerBuilder(pair.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256), null);
      return new PgpFixture(pair, rings.generatePublicKeyRing());
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    }
  }

  String fingerprint() {
    return HexFormat.of().withUpperCase().formatHex(publicRing.getPublicKey().getFingerprint());
  }

  String armoredPublicKey() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ArmoredOutputStream armored = new ArmoredOutputStream(bytes)) {
      publicRing.encode(armored);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toString(StandardCharsets.US_ASCII);
  }

  /** A detached, armored binary-document signature over {@code data}. */
  byte[] sign(byte[] data) {
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
    try {
      PGPSignatureGenerator generator = new PGPSignatureGenerator(
          new BcPGPContentSignerBuilder(pair.getPublicKey().getAlgorithm(), hashAlgorithm), pair.getPublicKey());
      generator.init(PGPSignature.BINARY_DOCUMENT, pair.getPrivateKey());
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
