package dev.capability.acquire;

import dev.capability.acquire.internal.Keyring;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The operator's trusted PGP keys, each bound to the coordinate patterns it may sign. The file
 * format is described in {@code docs/acquisition.md}.
 */
public final class TrustedKeys {
  private final Keyring keyring;

  private TrustedKeys(Keyring keyring) {
    this.keyring = keyring;
  }

  /**
   * Reads a keyring file.
   *
   * @throws AcquisitionRefusedException {@link AcquisitionCodes#KEYRING_INVALID}
   */
  public static TrustedKeys load(Path file) {
    return new TrustedKeys(Keyring.load(Objects.requireNonNull(file, "file")));
  }

  /** No trusted keys: every signature is by an unknown key. */
  public static TrustedKeys none() {
    return new TrustedKeys(Keyring.empty());
  }

  /** The primary-key fingerprints, upper-case hex. */
  public List<String> fingerprints() {
    return keyring.entries().stream().map(Keyring.Entry::fingerprint).toList();
  }

  Keyring keyring() {
    return keyring;
  }
}
