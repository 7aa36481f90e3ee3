package dev.capability.acquire.sigstore.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.spi.OperatorFileFields;
import dev.capability.capability.runtime.support.StrictJson;
import dev.sigstore.TrustedRootProvider;
import dev.sigstore.trustroot.SigstoreTrustedRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads the operator's Sigstore trust: {@code {"trustedRoot": "<path to a Sigstore
 * trusted_root.json>", "identities": [{"issuer": "...", "subject": "..." | "subjectPattern":
 * "...", "sourceRepository": "..." (optional), "coordinates": ["group:artifact", ...]}]}}. The trusted root is read from disk, relative
 * to this file, and never fetched: which CAs and logs to believe is the operator's decision.
 */
public final class SigstoreTrustFile {
  private static final int MAX_BYTES = 256 * 1024;
  private static final long TRUSTED_ROOT_MAX_BYTES = 4L * 1024 * 1024;
  private static final Set<String> FIELDS = Set.of("trustedRoot", "identities");
  private static final Set<String> IDENTITY_FIELDS = Set.of("issuer", "subject", "subjectPattern", "sourceRepository", "coordinates");

  /** The trusted root and the expected signers. */
  public record Contents(SigstoreTrustedRoot trustedRoot, Path trustedRootFile, List<SigstoreIdentity> identities) {
    public Contents {
      identities = List.copyOf(identities);
    }
  }

  private SigstoreTrustFile() {}

  public static Contents load(Path file) {
    JsonNode root;
    try {
      root = new StrictJson(MAX_BYTES, 16).parse(Files.readAllBytes(file), file.toString());
    } catch (IOException e) {
      throw invalid("cannot read Sigstore trust " + file + ": " + e.getMessage());
    } catch (StrictJson.StrictJsonException e) {
      throw invalid(e.getMessage());
    }
    if (!root.isObject()) {
      throw invalid(file + " is not a JSON object");
    }
    OperatorFileFields.onlyKnown(root, FIELDS, file.toString(), AcquisitionCodes.SIGSTORE_TRUST_INVALID);
    Path trustedRootFile = file.toAbsolutePath().getParent().resolve(text(root, "trustedRoot", file.toString()));
    JsonNode identities = root.path("identities");
    if (!identities.isArray() || identities.isEmpty()) {
      throw invalid(file + " needs a non-empty \"identities\" array: a trusted root alone would accept any signer it certifies");
    }
    List<SigstoreIdentity> parsed = new ArrayList<>();
    int index = 0;
    for (JsonNode node : identities) {
      parsed.add(identity(node, file + " identities[" + index++ + "]"));
    }
    return new Contents(trustedRoot(trustedRootFile), trustedRootFile, parsed);
  }

  private static SigstoreTrustedRoot trustedRoot(Path file) {
    try {
      if (Files.size(file) > TRUSTED_ROOT_MAX_BYTES) {
        throw invalid("the trusted root " + file + " is larger than " + TRUSTED_ROOT_MAX_BYTES + " bytes");
      }
      SigstoreTrustedRoot root = TrustedRootProvider.from(file).get();
      if (root.getCAs().isEmpty() || root.getTLogs().isEmpty() || root.getCTLogs().isEmpty()) {
        throw invalid("the trusted root " + file + " needs at least one certificate authority, one transparency log and one CT log");
      }
      return root;
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      if (e instanceof AcquisitionRefusedException refused) {
        throw refused;
      }
      throw invalid("the trusted root " + file + " cannot be read: " + e.getMessage());
    }
  }

  private static SigstoreIdentity identity(JsonNode node, String where) {
    if (!node.isObject()) {
      throw invalid(where + " is not an object");
    }
    OperatorFileFields.onlyKnown(node, IDENTITY_FIELDS, where, AcquisitionCodes.SIGSTORE_TRUST_INVALID);
    String issuer = text(node, "issuer", where);
    if (node.has("subject") == node.has("subjectPattern")) {
      throw invalid(where + " needs exactly one of \"subject\" and \"subjectPattern\"");
    }
    Pattern subject;
    if (node.has("subject")) {
      subject = Pattern.compile(Pattern.quote(text(node, "subject", where)));
    } else {
      try {
        subject = Pattern.compile(text(node, "subjectPattern", where));
      } catch (PatternSyntaxException e) {
        throw invalid(where + " subjectPattern is not a regular expression: " + e.getDescription());
      }
    }
    Optional<String> sourceRepository = node.has("sourceRepository") ? Optional.of(text(node, "sourceRepository", where)) : Optional.empty();
    return new SigstoreIdentity(
        issuer, subject, sourceRepository, OperatorFileFields.coordinatePatterns(node, where, AcquisitionCodes.SIGSTORE_TRUST_INVALID));
  }

  private static String text(JsonNode node, String field, String where) {
    return OperatorFileFields.text(node, field, where, AcquisitionCodes.SIGSTORE_TRUST_INVALID);
  }

  private static AcquisitionRefusedException invalid(String message) {
    return new AcquisitionRefusedException(AcquisitionCodes.SIGSTORE_TRUST_INVALID, message);
  }
}
