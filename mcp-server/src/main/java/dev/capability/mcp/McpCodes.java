package dev.capability.mcp;

/**
 * The stable codes of the MCP server: a tool call that fails returns one of these (or the code of
 * the kernel, runtime or store error underneath) as {@code code} in an error result, and the HTTP
 * gate answers with one in a JSON body before anything reaches the protocol (docs/mcp.md lists
 * them).
 */
public final class McpCodes {
  /** The server configuration is unusable; the server stops before it listens. */
  public static final String CONFIG_INVALID = "MCP_CONFIG_INVALID";

  /** A path names a place outside the operator's allowed roots, once symlinks are resolved. */
  public static final String OUTSIDE_ALLOWED_ROOTS = "MCP_OUTSIDE_ALLOWED_ROOTS";

  /** A path names a protected place ({@code .git/}, {@code .capability/}) the tool does not read. */
  public static final String PROTECTED_PATH = "MCP_PROTECTED_PATH";

  /** A path does not exist, or is not the kind of file the tool needs. */
  public static final String PATH_NOT_FOUND = "MCP_PATH_NOT_FOUND";

  /** The evidence store holds no record with the sequence number asked for. */
  public static final String NO_SUCH_RECORD = "MCP_NO_SUCH_RECORD";

  /** A tool argument is missing or malformed. */
  public static final String INVALID_ARGUMENT = "MCP_INVALID_ARGUMENT";

  /** A capability plan needs an approval that the operator did not give in advance by its fingerprint. */
  public static final String APPROVAL_NOT_PREAUTHORIZED = "MCP_APPROVAL_NOT_PREAUTHORIZED";

  /** The HTTP Host header is not one the server answers to (DNS-rebinding defence). */
  public static final String HOST_REFUSED = "MCP_HOST_REFUSED";

  /** The HTTP Origin header names a site other than the allowed ones. */
  public static final String ORIGIN_REFUSED = "MCP_ORIGIN_REFUSED";

  /** The bearer token is missing or wrong. */
  public static final String UNAUTHORIZED = "MCP_UNAUTHORIZED";

  /** The HTTP request body is larger than the configured limit. */
  public static final String REQUEST_TOO_LARGE = "MCP_REQUEST_TOO_LARGE";

  /** More requests are in flight than the configured concurrency limit. */
  public static final String TOO_MANY_REQUESTS = "MCP_TOO_MANY_REQUESTS";

  /** A tool failed in a way that has no more specific code; the message says how. */
  public static final String TOOL_FAILED = "MCP_TOOL_FAILED";

  /** The host gives the server no work-plan store, so the work-plan tools cannot run. */
  public static final String WORK_PLANS_UNAVAILABLE = "MCP_WORK_PLANS_UNAVAILABLE";

  /** {@code apply_patch} needs an active phase of a saved work plan, and there is none. */
  public static final String NO_ACTIVE_PHASE = "MCP_NO_ACTIVE_PHASE";

  /** A patch is not a unified diff the server can read, or names a path outside the repository. */
  public static final String PATCH_INVALID = "MCP_PATCH_INVALID";

  /** A patch creates, modifies or deletes a symbolic link (mode 120000). */
  public static final String PATCH_SYMLINK = "MCP_PATCH_SYMLINK";

  /** A patch touches a path the active phase (and correction) may not write; the message names it and the layer. */
  public static final String PATCH_OUTSIDE_SCOPE = "MCP_PATCH_OUTSIDE_SCOPE";

  /** {@code git apply --check} refused the patch; nothing was changed. */
  public static final String PATCH_CHECK_FAILED = "MCP_PATCH_CHECK_FAILED";

  /** The checked patch did not apply; the message says how. */
  public static final String PATCH_APPLY_FAILED = "MCP_PATCH_APPLY_FAILED";

  private McpCodes() {}
}
