package dev.capability.openapi;

import dev.capability.discovery.NetworkAccess;
import java.util.Objects;
import java.util.Optional;

/**
 * How to import a document.
 *
 * @param access which servers are acceptable (HTTPS to public hosts only by default)
 * @param limits the bounds of the import
 * @param server the server URL to use when the document lists several; it must be one of them
 * @param version the capability version to use when {@code info.version} is not an exact
 *     semantic version
 */
public record ImportOptions(NetworkAccess access, OpenApiLimits limits, Optional<String> server, Optional<String> version) {
  public ImportOptions {
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(version, "version");
  }

  /** Public HTTPS servers, default limits, no server or version chosen. */
  public static ImportOptions defaults() {
    return new ImportOptions(NetworkAccess.publicHttpsOnly(), OpenApiLimits.defaults(), Optional.empty(), Optional.empty());
  }

  public ImportOptions withAccess(NetworkAccess value) {
    return new ImportOptions(value, limits, server, version);
  }

  public ImportOptions withLimits(OpenApiLimits value) {
    return new ImportOptions(access, value, server, version);
  }

  public ImportOptions withServer(String value) {
    return new ImportOptions(access, limits, Optional.of(value), version);
  }

  public ImportOptions withVersion(String value) {
    return new ImportOptions(access, limits, server, Optional.of(value));
  }
}
