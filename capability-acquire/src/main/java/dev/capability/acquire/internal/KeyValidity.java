package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.bcpg.SignatureSubpacketTags;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureSubpacketVector;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;

/**
 * Whether a trusted key could make a signature at the time the signature says it was made,
 * judged only from signatures in its key ring that verify. A published key ring is writable by
 * anyone who can append packets to it (a keyserver does not check), so nothing unverified counts:
 * not a revocation (appended ones would refuse any key), not an expiry (an appended
 * "self-signature" could revive an expired key), not a subkey or its binding.
 *
 * <p>The primary key's expiry, and whether it may sign data (when its key flags say), come from
 * its newest self-signature that verifies. A subkey signs
 * only as GnuPG requires: its binding in force (the newest binding by the primary key that
 * verifies and was made no later than the signature) is unexpired, allows signing data, and
 * carries a back signature by the subkey; its expiry comes from that binding. Revocations count
 * when the primary key made them (designated revokers are not honoured), whenever they were made,
 * because a revocation for compromise makes every signature suspect.
 */
final class KeyValidity {
  private static final Set<Integer> SELF_CERTIFICATIONS = Set.of(
      PGPSignature.DEFAULT_CERTIFICATION, PGPSignature.NO_CERTIFICATION, PGPSignature.CASUAL_CERTIFICATION, PGPSignature.POSITIVE_CERTIFICATION);

  /** Why a key could not sign: the refusal code and a sentence. */
  record Problem(String code, String detail) {}

  private KeyValidity() {}

  /** Why {@code key}, {@code primary} itself or one of its subkeys, could not sign at {@code signedAt}; empty when it could. */
  static Optional<Problem> problem(PGPPublicKey primary, PGPPublicKey key, Date signedAt) {
    String primaryName = "key " + Keyring.fingerprint(primary);
    if (revoked(primary, primary, PGPSignature.KEY_REVOCATION)) {
      return Optional.of(new Problem(AcquisitionCodes.SIGNATURE_KEY_REVOKED, primaryName + " is revoked"));
    }
    Optional<PGPSignature> selfSignature = newestSelfSignature(primary);
    if (selfSignature.isEmpty()) {
      return Optional.of(new Problem(AcquisitionCodes.SIGNATURE_KEY_UNBOUND, primaryName + " has no valid self-signature"));
    }
    Optional<Problem> outside = outside(primaryName, primary, keyExpiration(selfSignature.get()), signedAt);
    if (outside.isPresent()) {
      return outside;
    }
    if (key.isMasterKey()) {
      // Key flags are optional on a self-signature (older keys have none); when present they must allow signing.
      PGPSignatureSubpacketVector hashed = selfSignature.get().getHashedSubPackets();
      boolean flagged = hashed != null && hashed.hasSubpacket(SignatureSubpacketTags.KEY_FLAGS);
      return flagged && (hashed.getKeyFlags() & KeyFlags.SIGN_DATA) == 0
          ? unbound(primaryName + " is not allowed to sign data (its self-signature's key flags say so); a signing subkey must sign")
          : Optional.empty();
    }
    String subkeyName = "subkey " + Keyring.fingerprint(key) + " of " + primaryName;
    if (revoked(key, primary, PGPSignature.SUBKEY_REVOCATION)) {
      return Optional.of(new Problem(AcquisitionCodes.SIGNATURE_KEY_REVOKED, subkeyName + " is revoked"));
    }
    Optional<PGPSignature> binding = bindingInForce(primary, key, signedAt);
    if (binding.isEmpty()) {
      return unbound(subkeyName + " has no valid binding signature by its primary key made by the time of the signature");
    }
    PGPSignatureSubpacketVector hashed = binding.get().getHashedSubPackets();
    long signatureExpiration = hashed == null ? 0 : hashed.getSignatureExpirationTime();
    if (signatureExpiration > 0 && signedAt.getTime() > binding.get().getCreationTime().getTime() + signatureExpiration * 1000) {
      return unbound(subkeyName + " is bound by a binding signature that had expired when the signature was made");
    }
    if (hashed == null || (hashed.getKeyFlags() & KeyFlags.SIGN_DATA) == 0) {
      return unbound(subkeyName + " is not bound for signing (its key flags do not allow signing data)");
    }
    if (!crossCertified(binding.get(), primary, key)) {
      return unbound(subkeyName + " is not cross-certified: its binding carries no valid back signature by the subkey");
    }
    return outside(subkeyName, key, keyExpiration(binding.get()), signedAt);
  }

  private static Optional<Problem> unbound(String detail) {
    return Optional.of(new Problem(AcquisitionCodes.SIGNATURE_KEY_UNBOUND, detail));
  }

  /** A signature counts only between the key's creation and its expiry (0: none), by its own creation time. */
  private static Optional<Problem> outside(String name, PGPPublicKey key, long validSeconds, Date signedAt) {
    Date created = key.getCreationTime();
    if (signedAt.before(created)) {
      return Optional.of(new Problem(AcquisitionCodes.SIGNATURE_KEY_EXPIRED,
          "was made at " + signedAt.toInstant() + ", before " + name + " was created"));
    }
    if (validSeconds > 0) {
      Date expires = new Date(created.getTime() + validSeconds * 1000);
      if (signedAt.after(expires)) {
        return Optional.of(new Problem(AcquisitionCodes.SIGNATURE_KEY_EXPIRED,
            "was made at " + signedAt.toInstant() + ", after " + name + " expired at " + expires.toInstant()));
      }
    }
    return Optional.empty();
  }

  private static long keyExpiration(PGPSignature signature) {
    PGPSignatureSubpacketVector hashed = signature.getHashedSubPackets();
    return hashed == null ? 0 : hashed.getKeyExpirationTime();
  }

  private static boolean revoked(PGPPublicKey key, PGPPublicKey primary, int type) {
    for (Iterator<PGPSignature> revocations = key.getSignaturesOfType(type); revocations.hasNext(); ) {
      PGPSignature revocation = revocations.next();
      if (revocation.getKeyID() == primary.getKeyID()
          && verifies(revocation, primary, signature -> type == PGPSignature.KEY_REVOCATION
              ? signature.verifyCertification(primary)
              : signature.verifyCertification(primary, key))) {
        return true;
      }
    }
    return false;
  }

  private static Optional<PGPSignature> newestSelfSignature(PGPPublicKey primary) {
    List<PGPSignature> verified = new ArrayList<>();
    for (Iterator<String> ids = primary.getUserIDs(); ids.hasNext(); ) {
      String id = ids.next();
      for (Iterator<PGPSignature> certifications = primary.getSignaturesForID(id); certifications.hasNext(); ) {
        PGPSignature certification = certifications.next();
        if (certification.getKeyID() == primary.getKeyID()
            && SELF_CERTIFICATIONS.contains(certification.getSignatureType())
            && verifies(certification, primary, signature -> signature.verifyCertification(id, primary))) {
          verified.add(certification);
        }
      }
    }
    for (Iterator<PGPSignature> direct = primary.getSignaturesOfType(PGPSignature.DIRECT_KEY); direct.hasNext(); ) {
      PGPSignature signature = direct.next();
      if (signature.getKeyID() == primary.getKeyID() && verifies(signature, primary, s -> s.verifyCertification(primary))) {
        verified.add(signature);
      }
    }
    return verified.stream().max(Comparator.comparing(PGPSignature::getCreationTime));
  }

  private static Optional<PGPSignature> bindingInForce(PGPPublicKey primary, PGPPublicKey subkey, Date signedAt) {
    List<PGPSignature> verified = new ArrayList<>();
    for (Iterator<PGPSignature> bindings = subkey.getSignaturesOfType(PGPSignature.SUBKEY_BINDING); bindings.hasNext(); ) {
      PGPSignature binding = bindings.next();
      if (binding.getKeyID() == primary.getKeyID()
          && !binding.getCreationTime().after(signedAt)
          && verifies(binding, primary, signature -> signature.verifyCertification(primary, subkey))) {
        verified.add(binding);
      }
    }
    return verified.stream().max(Comparator.comparing(PGPSignature::getCreationTime));
  }

  private static boolean crossCertified(PGPSignature binding, PGPPublicKey primary, PGPPublicKey subkey) {
    for (PGPSignatureSubpacketVector area : new PGPSignatureSubpacketVector[] {binding.getHashedSubPackets(), binding.getUnhashedSubPackets()}) {
      if (area == null) {
        continue;
      }
      try {
        for (PGPSignature back : area.getEmbeddedSignatures()) {
          if (back.getSignatureType() == PGPSignature.PRIMARYKEY_BINDING && verifies(back, subkey, s -> s.verifyCertification(primary, subkey))) {
            return true;
          }
        }
      } catch (PGPException | RuntimeException e) {
        // A malformed embedded signature is no back signature.
      }
    }
    return false;
  }

  @FunctionalInterface
  private interface Verification {
    boolean verify(PGPSignature signature) throws PGPException;
  }

  private static boolean verifies(PGPSignature signature, PGPPublicKey signer, Verification verification) {
    try {
      signature.init(new BcPGPContentVerifierBuilderProvider(), signer);
      return verification.verify(signature);
    } catch (PGPException | RuntimeException e) {
      return false;
    }
  }
}
