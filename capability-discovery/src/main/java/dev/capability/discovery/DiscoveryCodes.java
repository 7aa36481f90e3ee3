package dev.capability.discovery;

/**
 * The stable codes of discovery: why a traversal stopped, and what was wrong with one index or
 * link. They appear in {@link IndexProblem#code()}, {@link DiscoveryResult#stopReason()} and
 * {@link dev.capability.kernel.api.CapabilityException#code()}.
 */
public final class DiscoveryCodes {
  private DiscoveryCodes() {}

  /** The traversal visited every index it was allowed to reach. */
  public static final String INDEX_COMPLETE = "INDEX_COMPLETE";
  /** A link leads back to an index on its own federation path; not followed. */
  public static final String INDEX_CYCLE = "INDEX_CYCLE";
  /** A link is deeper than the depth limit; not followed. */
  public static final String INDEX_DEPTH_EXCEEDED = "INDEX_DEPTH_EXCEEDED";
  /** The maximum number of indexes was read; the traversal stopped. */
  public static final String INDEX_COUNT_EXCEEDED = "INDEX_COUNT_EXCEEDED";
  /** One document is larger than the per-document limit; it was abandoned. */
  public static final String INDEX_TOO_LARGE = "INDEX_TOO_LARGE";
  /** The bytes read in all reached the total limit; the traversal stopped. */
  public static final String INDEX_BYTES_EXCEEDED = "INDEX_BYTES_EXCEEDED";
  /** The time budget ran out; the traversal stopped. */
  public static final String INDEX_TIME_EXCEEDED = "INDEX_TIME_EXCEEDED";
  /** A document is not a valid index: syntax, unknown or missing fields, bad values. */
  public static final String INDEX_INVALID = "INDEX_INVALID";
  /** A URL is malformed, has user information, or is not absolute. */
  public static final String INDEX_URL_INVALID = "INDEX_URL_INVALID";
  /** A URL's scheme is not allowed (HTTPS only unless the operator allows HTTP). */
  public static final String INDEX_SCHEME_REFUSED = "INDEX_SCHEME_REFUSED";
  /** A host resolves to a loopback, private, link-local or otherwise non-public address. */
  public static final String INDEX_ADDRESS_REFUSED = "INDEX_ADDRESS_REFUSED";
  /** The server answered with a redirect; redirects are never followed. */
  public static final String INDEX_REDIRECT = "INDEX_REDIRECT";
  /** The host could not be resolved or reached, or answered with an error or a malformed response. */
  public static final String INDEX_UNREACHABLE = "INDEX_UNREACHABLE";
}
