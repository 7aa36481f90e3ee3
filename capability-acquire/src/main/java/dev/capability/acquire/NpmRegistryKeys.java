package dev.capability.acquire;

import dev.capability.acquire.internal.RegistryKeys;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * The npm registry signing keys the operator trusts, in the registry's own format ({@code
 * GET /-/npm/v1/keys}): {@code {"keys":[{"keyid":"SHA256:...","keytype":"ecdsa-sha2-nistp256",
 * "scheme":"ecdsa-sha2-nistp256","key":"<base64 SubjectPublicKeyInfo>","expires":null}]}}. Fetch it
 * once over a channel you trust and pin it; it is never fetched during acquisition.
 */
public final class NpmRegistryKeys {
  private final RegistryKeys keys;

  private NpmRegistryKeys(RegistryKeys keys) {
    this.keys = keys;
  }

  /** @throws AcquisitionRefusedException {@link AcquisitionCodes#KEYRING_INVALID} */
  public static NpmRegistryKeys load(Path file) {
    return new NpmRegistryKeys(RegistryKeys.load(Objects.requireNonNull(file, "file")));
  }

  /** No trusted registry key: every registry signature is by an unknown key. */
  public static NpmRegistryKeys none() {
    return new NpmRegistryKeys(RegistryKeys.empty());
  }

  public Set<String> keyIds() {
    return keys.keyIds();
  }

  RegistryKeys keys() {
    return keys;
  }
}
