package dev.capability.acquire;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What acquisition observed: what was fetched from where, the artifact's digests, and the outcome
 * of each verification. Observations record; they grant nothing. A {@link TrustPolicy} decides on
 * them and a {@link TrustScore} summarizes them.
 *
 * @param coordinates what was asked for: Maven coordinates, or {@code npm:name@version}
 * @param source the source's description
 * @param fetched every file asked of the source, found or not, in order
 * @param sha256 hex SHA-256 of the artifact
 * @param sha512 hex SHA-512 of the artifact
 * @param size the artifact's size in bytes
 * @param integrity the repository checksums
 * @param identity whether the package's manifest declares the artifact id and version it was
 *     acquired under
 * @param signature the detached PGP signature ({@code .asc})
 * @param signingKey fingerprint of the key that made a verified signature, or of the key a
 *     signature named when it failed
 * @param provenance the in-toto statement with SLSA provenance, and whether the POM's {@code <scm>}
 *     agrees with the repository it names
 * @param repository the source repository the provenance names
 * @param commit the commit the provenance names
 * @param sigstore the Sigstore bundle ({@code .sigstore.json}), verified against the operator's
 *     Sigstore trust when one is configured
 * @param sigstoreSigner the identity in the bundle's certificate, once the certificate was found
 *     certified by the trusted root: {@code subject (issuer ...)}
 */
public record Observations(
    String coordinates,
    String source,
    List<Fetch> fetched,
    String sha256,
    String sha512,
    long size,
    Check integrity,
    Check identity,
    Check signature,
    Optional<String> signingKey,
    Check provenance,
    Optional<String> repository,
    Optional<String> commit,
    Check sigstore,
    Optional<String> sigstoreSigner) {
  public Observations {
    Objects.requireNonNull(coordinates, "coordinates");
    Objects.requireNonNull(source, "source");
    fetched = List.copyOf(fetched);
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(sha512, "sha512");
    Objects.requireNonNull(integrity, "integrity");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(signature, "signature");
    Objects.requireNonNull(signingKey, "signingKey");
    Objects.requireNonNull(provenance, "provenance");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(sigstore, "sigstore");
    Objects.requireNonNull(sigstoreSigner, "sigstoreSigner");
  }

  /** The first failed check, in the order integrity, signature, provenance, identity, Sigstore. */
  public Optional<Check> firstFailure() {
    return List.of(integrity, signature, provenance, identity, sigstore).stream()
        .filter(check -> check.status() == Check.Status.FAILED)
        .findFirst();
  }
}
