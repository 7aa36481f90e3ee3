package dev.capability.discovery;

import dev.capability.discovery.internal.FederationTraversal;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * Reads index documents and follows their federation links breadth-first, within limits.
 *
 * <p>Every URL is canonicalized (lower-case scheme and host, default port dropped, dot segments
 * resolved, fragment dropped; user information refused) and read at most once. Every address a
 * host resolves to is checked against the {@link NetworkAccess} before connecting, and the
 * connection goes to that checked address. Redirects are never followed. Bodies are streamed and
 * abandoned as soon as a byte limit or the time budget is exceeded.
 */
public final class IndexFederation {
  private IndexFederation() {}

  /**
   * Traverses from {@code seeds} (depth 0). Never throws for anything an index or the network
   * does: those are {@link DiscoveryResult#problems()} or the {@link
   * DiscoveryResult#stopReason()}.
   */
  public static DiscoveryResult traverse(List<URI> seeds, DiscoveryLimits limits, NetworkAccess access) {
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(access, "access");
    return new FederationTraversal(limits, access).run(List.copyOf(seeds));
  }
}
