package dev.capability.acquire;

import dev.capability.acquire.internal.AcquisitionPipeline;
import dev.capability.acquire.internal.ContentStore;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Acquires exact coordinates from one source into a content-addressed store, inertly: the bytes
 * are streamed under a size limit, hashed, checked against the repository's checksums, the
 * detached PGP signature, the provenance statement and the Sigstore bundle, and stored as {@code
 * <store>/sha256/<hex>} only when every check that ran held and the trust policy accepts. Nothing is extracted, nothing
 * is loaded, nothing runs; a refusal leaves nothing in the store.
 *
 * <pre>{@code
 * Acquisition result = PackageAcquirer.builder(PackageSources.mavenRepository(uri), store)
 *     .keys(TrustedKeys.load(keyring))
 *     .policy(TrustPolicies.strict())
 *     .expectedRepository("https://github.com/example/hello")
 *     .build()
 *     .acquire(Coordinates.parse("com.example:hello:1.0.0@zip"));
 * }</pre>
 */
public final class PackageAcquirer {
  /** The default limit on the artifact's size: 64 MiB. */
  public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

  private final AcquisitionPipeline pipeline;

  private PackageAcquirer(Builder builder) {
    this.pipeline = new AcquisitionPipeline(
        builder.source,
        new ContentStore(builder.store),
        builder.keys.keyring(),
        builder.sigstore.verifier(),
        builder.policy,
        builder.expectedRepository,
        builder.expectedCommit,
        builder.maxBytes,
        builder.listener);
  }

  public static Builder builder(PackageSource source, Path store) {
    return new Builder(source, store);
  }

  /**
   * Fetches, verifies, decides and (when accepted) stores the artifact.
   *
   * @throws AcquisitionRefusedException when the artifact is absent, too large, or the source or
   *     store fails; verification failures are not thrown but returned as a refused {@link
   *     Acquisition} with its observations
   */
  public Acquisition acquire(Coordinates coordinates) {
    return pipeline.acquire(Objects.requireNonNull(coordinates, "coordinates"));
  }

  /**
   * Settings of a {@link PackageAcquirer}; defaults: no trusted keys, no Sigstore trust, the
   * default policy, 64 MiB.
   */
  public static final class Builder {
    private final PackageSource source;
    private final Path store;
    private TrustedKeys keys = TrustedKeys.none();
    private SigstoreTrust sigstore = SigstoreTrust.none();
    private TrustPolicy policy = TrustPolicies.standard();
    private Optional<String> expectedRepository = Optional.empty();
    private Optional<String> expectedCommit = Optional.empty();
    private AcquisitionListener listener = AcquisitionListener.NONE;
    private long maxBytes = DEFAULT_MAX_BYTES;

    private Builder(PackageSource source, Path store) {
      this.source = Objects.requireNonNull(source, "source");
      this.store = Objects.requireNonNull(store, "store");
    }

    public Builder keys(TrustedKeys keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** The Sigstore trusted root and expected signers that {@code .sigstore.json} bundles are verified against. */
    public Builder sigstore(SigstoreTrust sigstore) {
      this.sigstore = Objects.requireNonNull(sigstore, "sigstore");
      return this;
    }

    public Builder policy(TrustPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** The source repository the provenance must name, e.g. {@code https://github.com/org/repo}. */
    public Builder expectedRepository(String repository) {
      this.expectedRepository = Optional.of(Objects.requireNonNull(repository, "repository"));
      return this;
    }

    /** The commit (40 lowercase hex digits) the provenance must name. */
    public Builder expectedCommit(String commit) {
      Objects.requireNonNull(commit, "commit");
      if (!commit.matches("[0-9a-f]{40}")) {
        throw new IllegalArgumentException("expected commit is not 40 lowercase hex digits: " + commit);
      }
      this.expectedCommit = Optional.of(commit);
      return this;
    }

    /** The largest artifact accepted, in bytes. */
    public Builder maxBytes(long maxBytes) {
      if (maxBytes <= 0) {
        throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
      }
      this.maxBytes = maxBytes;
      return this;
    }

    /** Told each file as it is fetched, for progress; default {@link AcquisitionListener#NONE}. */
    public Builder listener(AcquisitionListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public PackageAcquirer build() {
      return new PackageAcquirer(this);
    }
  }
}
