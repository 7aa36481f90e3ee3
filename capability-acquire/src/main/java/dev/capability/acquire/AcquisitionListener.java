package dev.capability.acquire;

/**
 * Told what an acquisition reads, as it reads it: for a host that shows progress during downloads
 * that can take minutes. It observes only; what it is told changes nothing, and it must not throw.
 * The same {@link Fetch}es end up in the acquisition's {@link Observations}.
 */
public interface AcquisitionListener {
  /** A listener that ignores everything: the default. */
  AcquisitionListener NONE = new AcquisitionListener() {};

  /** Before the package itself (the artifact or the npm tarball) is downloaded from {@code location}. */
  default void downloading(String location) {}

  /** After each file was asked for: the package, a side file (checksum, signature, ...) or the npm manifest. */
  default void fetched(Fetch fetch) {}
}
