package dev.capability.kernel.core.internal.exec;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** SHA-256 of executables by {@link FileIdentity}, so an unchanged file is hashed once. */
final class DigestCache {
  private static final int MAX_ENTRIES = 4096;

  private final ConcurrentHashMap<FileIdentity, String> digests = new ConcurrentHashMap<>();

  Optional<String> get(FileIdentity identity) {
    return Optional.ofNullable(digests.get(identity));
  }

  void put(FileIdentity identity, String sha256) {
    if (digests.size() >= MAX_ENTRIES) {
      digests.clear();
    }
    digests.put(identity, sha256);
  }
}
