package dev.capability.kernel.api.backend;

import java.nio.file.Path;
import java.util.Objects;

/**
 * An executable whose bytes were hashed and which is launched so that exactly those bytes run.
 *
 * @param path the canonical path the executable was resolved to
 * @param sha256 lower-case hex SHA-256 of the bytes that will run
 * @param execPath the path a backend must hand to {@code execve}; with {@link Pinning#PROC_FD} it
 *     names a descriptor the kernel holds open on the hashed file, so a file swapped in at
 *     {@code path} after hashing is never run
 * @param pinning how the bytes were pinned; recorded in the attestation
 */
public record PinnedExecutable(Path path, String sha256, String execPath, Pinning pinning) {

  /** How the kernel made sure the hashed bytes are the bytes that run. */
  public enum Pinning {
    /** Executed through {@code /proc/<pid>/fd/<n>}, a descriptor opened before hashing. */
    PROC_FD
  }

  public PinnedExecutable {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(execPath, "execPath");
    Objects.requireNonNull(pinning, "pinning");
  }
}
