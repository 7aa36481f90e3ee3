package dev.capability.openapi;

/** The stable codes of OpenAPI import refusals, as found in {@link OpenApiRefusedException#code()}. */
public final class OpenApiCodes {
  private OpenApiCodes() {}

  /** Not strict JSON, or a member has the wrong shape. */
  public static final String OPENAPI_INVALID = "OPENAPI_INVALID";
  /** The document is larger or deeper than the limits. */
  public static final String OPENAPI_TOO_LARGE = "OPENAPI_TOO_LARGE";
  /** {@code openapi} is not 3.0.x or 3.1.x. */
  public static final String OPENAPI_VERSION_UNSUPPORTED = "OPENAPI_VERSION_UNSUPPORTED";
  /** {@code info.version} is not an exact semantic version and none was given. */
  public static final String OPENAPI_CAPABILITY_VERSION_INVALID = "OPENAPI_CAPABILITY_VERSION_INVALID";
  /** No usable server: missing, relative, not https, a variable without a default, several to choose from. */
  public static final String OPENAPI_SERVER_INVALID = "OPENAPI_SERVER_INVALID";
  /** The server is a loopback or private address the operator did not allow. */
  public static final String OPENAPI_SERVER_REFUSED = "OPENAPI_SERVER_REFUSED";
  /** A {@code $ref} points outside the document. */
  public static final String OPENAPI_REF_EXTERNAL = "OPENAPI_REF_EXTERNAL";
  /** A {@code $ref} points at itself through other references. */
  public static final String OPENAPI_REF_CYCLE = "OPENAPI_REF_CYCLE";
  /** A {@code $ref} is malformed, dangling, or nested deeper than the limit. */
  public static final String OPENAPI_REF_INVALID = "OPENAPI_REF_INVALID";
  /** An operation's schemas expand to more nodes than the limit (a reference bomb). */
  public static final String OPENAPI_SCHEMA_TOO_LARGE = "OPENAPI_SCHEMA_TOO_LARGE";
  /** More operations than the limit. */
  public static final String OPENAPI_TOO_MANY_OPERATIONS = "OPENAPI_TOO_MANY_OPERATIONS";
  /** An operation's name is not a valid capability name. */
  public static final String OPENAPI_NAME_INVALID = "OPENAPI_NAME_INVALID";
  /** Two operations yield the same capability name. */
  public static final String OPENAPI_NAME_COLLISION = "OPENAPI_NAME_COLLISION";
  /** The output directory exists and is not empty, or could not be written. */
  public static final String OPENAPI_OUTPUT_INVALID = "OPENAPI_OUTPUT_INVALID";
}
