package dev.capability.acquire;

import dev.capability.acquire.internal.ContentStore;
import dev.capability.acquire.internal.NpmPipeline;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Acquires an exact npm package version into the same content-addressed store, inertly: the
 * version's manifest is read from the registry, the tarball (only from the registry's own origin)
 * is streamed under a size limit and checked against the manifest's SHA-512 integrity, and the
 * registry's ECDSA signature over {@code name@version:integrity} is checked against pinned
 * registry keys. Nothing is extracted, no lifecycle script runs (none ever does here), and npm
 * provenance attestations (Sigstore bundles) are recorded as present, never as verified.
 */
public final class NpmAcquirer {
  private final NpmPipeline pipeline;

  private NpmAcquirer(Builder builder) {
    this.pipeline = new NpmPipeline(
        builder.registry, builder.allowHttpLoopback, builder.bodyBudget, new ContentStore(builder.store),
        builder.keys.keys(), builder.policy, builder.maxBytes, builder.listener);
  }

  public static Builder builder(URI registry, Path store) {
    return new Builder(registry, store);
  }

  /**
   * @throws AcquisitionRefusedException when the version is absent, its manifest is invalid or
   *     names another package, the tarball lies outside the registry, is too large, or the
   *     registry or store fails; verification failures are returned as a refused {@link Acquisition}
   */
  public Acquisition acquire(NpmCoordinates coordinates) {
    return pipeline.acquire(Objects.requireNonNull(coordinates, "coordinates"));
  }

  /** Settings; defaults: no trusted registry key, the default policy, 64 MiB, five minutes a body, HTTPS only. */
  public static final class Builder {
    private final URI registry;
    private final Path store;
    private boolean allowHttpLoopback;
    private Duration bodyBudget = Duration.ofMinutes(5);
    private NpmRegistryKeys keys = NpmRegistryKeys.none();
    private TrustPolicy policy = TrustPolicies.standard();
    private AcquisitionListener listener = AcquisitionListener.NONE;
    private long maxBytes = PackageAcquirer.DEFAULT_MAX_BYTES;

    private Builder(URI registry, Path store) {
      this.registry = Objects.requireNonNull(registry, "registry");
      this.store = Objects.requireNonNull(store, "store");
    }

    /** Allows plain HTTP when the registry host is a loopback address. */
    public Builder allowHttpLoopback(boolean allow) {
      this.allowHttpLoopback = allow;
      return this;
    }

    public Builder bodyBudget(Duration budget) {
      this.bodyBudget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    public Builder keys(NpmRegistryKeys keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    public Builder policy(TrustPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

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

    public NpmAcquirer build() {
      return new NpmAcquirer(this);
    }
  }
}
