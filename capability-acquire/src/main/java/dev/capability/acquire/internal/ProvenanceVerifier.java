package dev.capability.acquire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.Check;
import dev.capability.acquire.Coordinates;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.capability.runtime.support.UrlCredentials;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Checks an in-toto Statement carrying SLSA provenance: a subject must name the artifact by its
 * SHA-256 or SHA-512 (every digest of the subject that can be compared must match), it must name a source repository (the expected one, when the operator gave one) and a
 * 40-hex commit. It counts as verified only when it is also signed by a key the keyring
 * authorizes for the coordinates: an unsigned statement is only as trustworthy as the repository
 * that served it.
 */
public final class ProvenanceVerifier {
  public static final int MAX_BYTES = 1024 * 1024;
  private static final Set<String> STATEMENT_TYPES = Set.of("https://in-toto.io/Statement/v1", "https://in-toto.io/Statement/v0.1");
  private static final String SLSA_PREFIX = "https://slsa.dev/provenance/";
  /** The digests that can name the artifact in a subject; sha1 and md5 are compared when present, but never suffice. */
  private static final Set<String> SUBJECT_ALGORITHMS = Set.of("sha256", "sha512");
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");
  /** Printed and recorded as observed, so no control characters, spaces or non-ASCII. */
  private static final Pattern PRINTABLE_URI = Pattern.compile("[a-z][a-z0-9+.-]*://[\\x21-\\x7e]{1,2000}");

  /** The check, and what the statement named. */
  public record Outcome(Check check, Optional<String> repository, Optional<String> commit) {
    static Outcome failed(String code, String detail) {
      return new Outcome(Check.failed(code, detail), Optional.empty(), Optional.empty());
    }
  }

  /** What the operator expects the provenance to name; either may be left open. */
  public record Expectations(Optional<String> repository, Optional<String> commit) {}

  private final SignatureVerifier signatures;

  public ProvenanceVerifier(SignatureVerifier signatures) {
    this.signatures = signatures;
  }

  /**
   * @param statement the statement's bytes
   * @param signature the statement's detached signature, when the source had one
   * @param artifactDigests the artifact's hex digests by in-toto algorithm name; must hold {@code
   *     sha256} and {@code sha512}
   */
  public Outcome verify(
      byte[] statement, Optional<byte[]> signature, Map<String, String> artifactDigests, Coordinates coordinates, Expectations expected) {
    JsonNode root;
    try {
      root = new StrictJson(MAX_BYTES, 64).parse(statement, "the provenance statement");
    } catch (StrictJson.StrictJsonException e) {
      return Outcome.failed(AcquisitionCodes.PROVENANCE_INVALID, e.getMessage());
    }
    if (!STATEMENT_TYPES.contains(root.path("_type").asText(""))) {
      return Outcome.failed(AcquisitionCodes.PROVENANCE_INVALID, "the provenance is not an in-toto Statement (_type " + root.path("_type") + ")");
    }
    if (!root.path("predicateType").asText("").startsWith(SLSA_PREFIX)) {
      return Outcome.failed(AcquisitionCodes.PROVENANCE_INVALID, "the statement's predicateType " + root.path("predicateType") + " is not SLSA provenance");
    }
    Optional<Check> subjectRefusal = subjectRefusal(root.path("subject"), artifactDigests);
    if (subjectRefusal.isPresent()) {
      return new Outcome(subjectRefusal.get(), Optional.empty(), Optional.empty());
    }
    JsonNode source = source(root.path("predicate"));
    if (source == null) {
      return Outcome.failed(AcquisitionCodes.PROVENANCE_INVALID, "the provenance names no source repository with a commit");
    }
    String repository = normalize(source.path("uri").asText(""));
    if (!PRINTABLE_URI.matcher(repository).matches()) {
      return Outcome.failed(AcquisitionCodes.PROVENANCE_INVALID, "the provenance names a source repository that is not a printable URI: '" + printable(UrlCredentials.redacted(repository)) + "'");
    }
    String commit = source.path("digest").path("gitCommit").asText(source.path("digest").path("sha1").asText(""));
    if (!COMMIT.matcher(commit).matches()) {
      return new Outcome(
          Check.failed(AcquisitionCodes.PROVENANCE_COMMIT_INVALID, "the provenance names commit '" + printable(commit) + "', not 40 lowercase hex digits"),
          Optional.of(repository), Optional.empty());
    }
    if (expected.commit().isPresent() && !expected.commit().get().equals(commit)) {
      return new Outcome(
          Check.failed(AcquisitionCodes.PROVENANCE_COMMIT_MISMATCH, "the provenance names commit " + commit + ", not the expected " + expected.commit().get()),
          Optional.of(repository), Optional.of(commit));
    }
    Optional<String> expectedRepository = expected.repository().map(ProvenanceVerifier::normalize);
    if (expectedRepository.isPresent() && !expectedRepository.get().equals(repository)) {
      return new Outcome(
          Check.failed(AcquisitionCodes.PROVENANCE_REPOSITORY_MISMATCH, "the provenance names repository " + printable(UrlCredentials.redacted(repository)) + ", not the expected "
              + printable(UrlCredentials.redacted(expectedRepository.get()))),
          Optional.of(repository), Optional.of(commit));
    }
    Optional<String> named = Optional.of(repository);
    if (signature.isPresent()) {
      SignatureVerifier.Outcome signed =
          signatures.verify(signature.get(), () -> new ByteArrayInputStream(statement), coordinates, "the provenance statement");
      if (!signed.check().isVerified()) {
        return new Outcome(
            Check.failed(AcquisitionCodes.PROVENANCE_SIGNATURE_INVALID, signed.check().code() + ": " + signed.check().detail()), named, Optional.of(commit));
      }
      if (expectedRepository.isEmpty()) {
        return new Outcome(
            Check.unverified(AcquisitionCodes.PROVENANCE_REPOSITORY_UNCHECKED, "signed provenance names " + UrlCredentials.redacted(repository) + " at " + commit + ", but no repository was expected"),
            named, Optional.of(commit));
      }
      return new Outcome(
          Check.verified("provenance signed by " + signed.keyFingerprint().orElse("?") + " names " + UrlCredentials.redacted(repository) + " at " + commit + " for this artifact"),
          named, Optional.of(commit));
    }
    return new Outcome(
        Check.unverified(AcquisitionCodes.PROVENANCE_UNSIGNED, "provenance names " + UrlCredentials.redacted(repository) + " at " + commit + " for this artifact, but it is not signed"),
        named, Optional.of(commit));
  }

  /**
   * Empty when a subject names the artifact: it carries a SHA-256 or SHA-512 digest, and every
   * digest it carries that was computed for the artifact equals the artifact's. A subject whose
   * computed digests disagree among themselves (one equals the artifact's, another does not) refuses
   * outright, whatever the other subjects say: the statement contradicts itself about these bytes.
   */
  private static Optional<Check> subjectRefusal(JsonNode subjects, Map<String, String> artifactDigests) {
    boolean named = false;
    boolean strongDigestSeen = false;
    Set<String> otherAlgorithms = new TreeSet<>();
    for (JsonNode subject : subjects.isArray() ? subjects : List.<JsonNode>of()) {
      JsonNode digest = subject.path("digest");
      List<String> equal = new ArrayList<>();
      List<String> different = new ArrayList<>();
      boolean strong = false;
      for (Iterator<String> names = digest.fieldNames(); names.hasNext(); ) {
        String algorithm = names.next();
        String expected = artifactDigests.get(algorithm);
        if (expected == null) {
          if (otherAlgorithms.size() < 8) {
            otherAlgorithms.add(printable(algorithm));
          }
          continue;
        }
        strong |= SUBJECT_ALGORITHMS.contains(algorithm);
        boolean same = digest.get(algorithm).isTextual() && digest.get(algorithm).asText().toLowerCase(Locale.ROOT).equals(expected);
        if (same) {
          equal.add(algorithm);
        } else {
          different.add(algorithm);
        }
      }
      if (!equal.isEmpty() && !different.isEmpty()) {
        return Optional.of(Check.failed(
            AcquisitionCodes.PROVENANCE_SUBJECT_MISMATCH,
            "a subject of the provenance statement has the artifact's " + String.join(", ", equal) + " but another "
                + String.join(", ", different) + " than the artifact's"));
      }
      strongDigestSeen |= strong;
      named |= strong && different.isEmpty();
    }
    if (named) {
      return Optional.empty();
    }
    if (!strongDigestSeen) {
      return Optional.of(Check.failed(
          AcquisitionCodes.PROVENANCE_DIGEST_UNSUPPORTED,
          "no subject of the provenance statement has a sha256 or sha512 digest"
              + (otherAlgorithms.isEmpty() ? "" : " (it has " + String.join(", ", otherAlgorithms) + ")")
              + ", so it cannot name the artifact"));
    }
    return Optional.of(Check.failed(
        AcquisitionCodes.PROVENANCE_SUBJECT_MISMATCH,
        "no subject of the provenance statement has the artifact's sha256 " + artifactDigests.get("sha256") + " or sha512"));
  }

  /** SLSA v1 {@code buildDefinition.resolvedDependencies}, or v0.2 {@code invocation.configSource}. */
  private static JsonNode source(JsonNode predicate) {
    for (JsonNode dependency : predicate.path("buildDefinition").path("resolvedDependencies")) {
      JsonNode digest = dependency.path("digest");
      if (dependency.path("uri").isTextual() && (digest.has("gitCommit") || digest.has("sha1"))) {
        return dependency;
      }
    }
    JsonNode configSource = predicate.path("invocation").path("configSource");
    return configSource.path("uri").isTextual() ? configSource : null;
  }

  /** {@code git+https://host/org/repo.git@refs/heads/main} and {@code https://host/org/repo} name the same repository. */
  static String normalize(String uri) {
    String value = uri.strip();
    if (value.startsWith("git+")) {
      value = value.substring(4);
    }
    // The ref follows an '@' in the path; an '@' before the path ends user information, which stays.
    int path = value.indexOf('/', value.indexOf("://") + 3);
    int at = path < 0 ? -1 : value.indexOf('@', path);
    if (at >= 0) {
      value = value.substring(0, at);
    }
    while (value.endsWith("/")) {
      value = value.substring(0, value.length() - 1);
    }
    if (value.endsWith(".git")) {
      value = value.substring(0, value.length() - 4);
    }
    return value;
  }

  private static String printable(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().limit(120).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : "?"));
    return out.toString();
  }
}
