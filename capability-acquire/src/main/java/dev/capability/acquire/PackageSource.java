package dev.capability.acquire;

import java.io.InputStream;
import java.util.Optional;

/**
 * Where packages come from: a directory or a remote repository in the standard Maven layout.
 * A source only opens files; the {@link PackageAcquirer} bounds, hashes, verifies and stores what
 * it reads, so a source never decides what is trusted. Create sources with {@link PackageSources}.
 */
public interface PackageSource {
  /** A short, printable name of the source (its root URL or directory), for observations. */
  String describe();

  /** Where {@code path} (relative to the source root, '/'-separated) lives: a URL or a file path. */
  String location(String path);

  /**
   * Opens the file at {@code path}, relative to the source root; the caller closes the stream.
   *
   * @return empty when the source does not have the file
   * @throws AcquisitionRefusedException when the source cannot answer or answers with anything
   *     but the file or its absence (a redirect, a server error)
   */
  Optional<InputStream> open(String path);
}
