package dev.capability.capability.runtime.internal.acquire;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPSignatureSubpacketVector;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;

/**
 * Whether a subkey really belongs to its primary key and may sign, as GnuPG requires before it
 * accepts the subkey's signatures: a subkey binding signature by the primary key over the subkey,
 * whose key flags allow signing data, carrying a primary key binding signature ("back signature")
 * made by the subkey. Without this, anyone who can append packets to a published key ring (a
 * keyserver does not check) could add a subkey of their own and sign with it.
 */
final class SubkeyBinding {
  private SubkeyBinding() {}

  /** Why {@code key} may not sign for {@code primary}, or empty when it may (a primary key always may). */
  static Optional<String> problem(PGPPublicKey primary, PGPPublicKey key) {
    if (key.isMasterKey()) {
      return Optional.empty();
    }
    String subkey = "subkey " + Keyring.fingerprint(key) + " of key " + Keyring.fingerprint(primary);
    boolean bound = false;
    boolean signing = false;
    for (Iterator<PGPSignature> bindings = key.getSignaturesOfType(PGPSignature.SUBKEY_BINDING); bindings.hasNext(); ) {
      PGPSignature binding = bindings.next();
      if (binding.getKeyID() != primary.getKeyID() || !certifies(binding, primary, primary, key)) {
        continue;
      }
      bound = true;
      PGPSignatureSubpacketVector hashed = binding.getHashedSubPackets();
      if (hashed == null || (hashed.getKeyFlags() & KeyFlags.SIGN_DATA) == 0) {
        continue;
      }
      signing = true;
      for (PGPSignature back : embedded(binding)) {
        if (back.getSignatureType() == PGPSignature.PRIMARYKEY_BINDING && certifies(back, key, primary, key)) {
          return Optional.empty();
        }
      }
    }
    if (!bound) {
      return Optional.of(subkey + " has no valid binding signature by its primary key");
    }
    if (!signing) {
      return Optional.of(subkey + " is not bound for signing (its key flags do not allow signing data)");
    }
    return Optional.of(subkey + " is not cross-certified: its binding carries no valid back signature by the subkey");
  }

  private static boolean certifies(PGPSignature signature, PGPPublicKey signer, PGPPublicKey primary, PGPPublicKey subkey) {
    try {
      signature.init(new BcPGPContentVerifierBuilderProvider(), signer);
      return signature.verifyCertification(primary, subkey);
    } catch (PGPException | RuntimeException e) {
      return false;
    }
  }

  private static List<PGPSignature> embedded(PGPSignature binding) {
    List<PGPSignature> found = new ArrayList<>();
    for (PGPSignatureSubpacketVector area : new PGPSignatureSubpacketVector[] {binding.getHashedSubPackets(), binding.getUnhashedSubPackets()}) {
      if (area == null) {
        continue;
      }
      try {
        PGPSignatureList list = area.getEmbeddedSignatures();
        list.forEach(found::add);
      } catch (PGPException | RuntimeException e) {
        // A malformed embedded signature is no back signature.
      }
    }
    return found;
  }
}
