package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.Check;
import dev.capability.acquire.Coordinates;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.openpgp.PGPCompressedData;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPObjectFactory;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;

/**
 * Checks a detached PGP signature ({@code .asc}) over some bytes against the operator keyring: the
 * file must hold exactly one binary-document signature with a SHA-2 or SHA-3 hash, made by a
 * trusted key that the keyring authorizes for the coordinates and that could sign at the time the
 * signature names (see {@link KeyValidity}: unrevoked, unexpired, and a subkey only when bound
 * to its primary key for signing).
 */
public final class SignatureVerifier {
  private static final Set<Integer> STRONG_HASHES = Set.of(
      HashAlgorithmTags.SHA256, HashAlgorithmTags.SHA384, HashAlgorithmTags.SHA512,
      HashAlgorithmTags.SHA3_256, HashAlgorithmTags.SHA3_512);

  /** The check and the fingerprint of the key the signature named, when it named a trusted one. */
  public record Outcome(Check check, Optional<String> keyFingerprint) {}

  /** Something that can be read twice: the signed bytes, streamed per candidate key. */
  @FunctionalInterface
  public interface SignedBytes {
    InputStream open() throws IOException;
  }

  private static final String ARMOR_BEGIN = "-----BEGIN PGP";
  private static final String ARMOR_END = "-----END PGP SIGNATURE-----";

  private final Keyring keyring;

  public SignatureVerifier(Keyring keyring) {
    this.keyring = keyring;
  }

  public Outcome verify(byte[] armoredSignature, SignedBytes signed, Coordinates coordinates, String what) {
    PGPSignature signature;
    try {
      signature = single(armoredSignature);
    } catch (IOException | PGPException | RuntimeException e) {
      return failed(AcquisitionCodes.SIGNATURE_INVALID, "the signature of " + what + " cannot be read: " + e.getMessage(), null);
    }
    if (signature.getSignatureType() != PGPSignature.BINARY_DOCUMENT) {
      return failed(AcquisitionCodes.SIGNATURE_INVALID, "the signature of " + what + " is not a binary-document signature", null);
    }
    if (!STRONG_HASHES.contains(signature.getHashAlgorithm())) {
      return failed(
          AcquisitionCodes.SIGNATURE_INVALID, "the signature of " + what + " uses hash algorithm " + signature.getHashAlgorithm() + "; SHA-2 or SHA-3 is required", null);
    }
    List<Keyring.Match> matches = keyring.find(signature.getKeyID());
    if (matches.isEmpty()) {
      return failed(
          AcquisitionCodes.SIGNATURE_UNKNOWN_KEY,
          "the signature of " + what + " was made by key id " + HexFormat.of().withUpperCase().toHexDigits(signature.getKeyID()) + ", which the keyring does not trust",
          null);
    }
    List<Keyring.Match> authorized = new ArrayList<>();
    for (Keyring.Match match : matches) {
      if (match.entry().authorizes(coordinates)) {
        authorized.add(match);
      }
    }
    if (authorized.isEmpty()) {
      Keyring.Match first = matches.get(0);
      return failed(
          AcquisitionCodes.SIGNATURE_KEY_NOT_AUTHORIZED,
          "key " + first.entry().fingerprint() + " signed " + what + " but the keyring authorizes it only for " + first.entry().patterns() + ", not " + coordinates.module(),
          first.entry().fingerprint());
    }
    for (Keyring.Match match : authorized) {
      String fingerprint = Keyring.fingerprint(match.key());
      Optional<KeyValidity.Problem> problem = KeyValidity.problem(match.entry().ring().getPublicKey(), match.key(), signature.getCreationTime());
      if (problem.isPresent()) {
        return failed(problem.get().code(), "the signature of " + what + " by key " + fingerprint + ": " + problem.get().detail(), fingerprint);
      }
      try (InputStream in = signed.open()) {
        signature.init(new BcPGPContentVerifierBuilderProvider(), match.key());
        byte[] buffer = new byte[64 * 1024];
        int n;
        while ((n = in.read(buffer)) >= 0) {
          signature.update(buffer, 0, n);
        }
        if (signature.verify()) {
          return new Outcome(Check.verified("signed by key " + fingerprint + ", authorized for " + match.entry().patterns()), Optional.of(fingerprint));
        }
      } catch (IOException | PGPException | RuntimeException e) {
        return failed(AcquisitionCodes.SIGNATURE_INVALID, "the signature of " + what + " cannot be verified: " + e.getMessage(), fingerprint);
      }
    }
    String fingerprint = Keyring.fingerprint(authorized.get(0).key());
    return failed(AcquisitionCodes.SIGNATURE_INVALID, "the signature of " + what + " by key " + fingerprint + " does not match its bytes", fingerprint);
  }

  private static PGPSignature single(byte[] armored) throws IOException, PGPException {
    requireOneArmorBlock(armored);
    PGPObjectFactory factory = new BcPGPObjectFactory(PGPUtil.getDecoderStream(new ByteArrayInputStream(armored)));
    Object object = factory.nextObject();
    if (object instanceof PGPCompressedData) {
      // A detached signature is never compressed; inflating attacker data would only invite a bomb.
      throw new PGPException("the signature file holds compressed data, not a detached signature");
    }
    if (!(object instanceof PGPSignatureList list)) {
      throw new PGPException("expected a detached signature, found " + (object == null ? "nothing" : object.getClass().getSimpleName()));
    }
    if (list.size() != 1 || factory.nextObject() != null) {
      throw new PGPException("expected exactly one signature");
    }
    return list.get(0);
  }

  /** The armor decoder stops after the first block, so anything after it would go unseen. */
  private static void requireOneArmorBlock(byte[] file) throws PGPException {
    String text = new String(file, StandardCharsets.ISO_8859_1);
    int begin = text.indexOf(ARMOR_BEGIN);
    if (begin < 0 || !text.substring(0, begin).isBlank()) {
      if (!text.isEmpty() && (file[0] & 0x80) != 0) {
        return; // binary packets: the object factory sees every one of them
      }
      throw new PGPException("the file is neither an armored signature nor binary OpenPGP packets");
    }
    int end = text.indexOf(ARMOR_END);
    if (end < 0 || text.indexOf(ARMOR_BEGIN, begin + 1) >= 0 || !text.substring(end + ARMOR_END.length()).isBlank()) {
      throw new PGPException("the file must hold exactly one armored signature block and nothing after it");
    }
  }

  private static Outcome failed(String code, String detail, String fingerprint) {
    return new Outcome(Check.failed(code, detail), Optional.ofNullable(fingerprint));
  }
}
