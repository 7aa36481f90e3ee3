package dev.capability.capability.runtime;

import dev.capability.kernel.api.network.NetworkFilterUnavailableException;

/**
 * The stable codes of every refusal the capability runtime raises, as found in {@link
 * dev.capability.kernel.api.CapabilityException#code()}. Scripts and the CLI depend on them.
 */
public final class CapabilityCodes {
  private CapabilityCodes() {}

  // Archives and directories.
  public static final String ARCHIVE_PATH_TRAVERSAL = "ARCHIVE_PATH_TRAVERSAL";
  public static final String ARCHIVE_NON_CANONICAL_NAME = "ARCHIVE_NON_CANONICAL_NAME";
  public static final String ARCHIVE_HOSTILE_NAME = "ARCHIVE_HOSTILE_NAME";
  public static final String ARCHIVE_DUPLICATE_ENTRY = "ARCHIVE_DUPLICATE_ENTRY";
  public static final String ARCHIVE_NAME_COLLISION = "ARCHIVE_NAME_COLLISION";
  public static final String ARCHIVE_SYMLINK = "ARCHIVE_SYMLINK";
  public static final String ARCHIVE_SPECIAL_FILE = "ARCHIVE_SPECIAL_FILE";
  public static final String ARCHIVE_HEADER_MISMATCH = "ARCHIVE_HEADER_MISMATCH";
  public static final String ARCHIVE_PREPENDED_DATA = "ARCHIVE_PREPENDED_DATA";
  public static final String ARCHIVE_OVERLAPPING_ENTRIES = "ARCHIVE_OVERLAPPING_ENTRIES";
  public static final String ARCHIVE_BOMB = "ARCHIVE_BOMB";
  public static final String ARCHIVE_NESTED = "ARCHIVE_NESTED";
  public static final String ARCHIVE_ENCRYPTED = "ARCHIVE_ENCRYPTED";
  public static final String ARCHIVE_UNSUPPORTED = "ARCHIVE_UNSUPPORTED";
  public static final String ARCHIVE_CORRUPT = "ARCHIVE_CORRUPT";
  public static final String PACKAGE_UNREADABLE = "PACKAGE_UNREADABLE";

  // The manifest.
  public static final String MANIFEST_MISSING = "MANIFEST_MISSING";
  public static final String MANIFEST_INVALID = "MANIFEST_INVALID";
  public static final String MANIFEST_DUPLICATE_KEY = "MANIFEST_DUPLICATE_KEY";
  public static final String MANIFEST_UNKNOWN_FIELD = "MANIFEST_UNKNOWN_FIELD";
  public static final String MANIFEST_MISSING_FIELD = "MANIFEST_MISSING_FIELD";
  public static final String MANIFEST_BOM = "MANIFEST_BOM";
  public static final String MANIFEST_ENCODING = "MANIFEST_ENCODING";
  public static final String MANIFEST_TOO_LARGE = "MANIFEST_TOO_LARGE";
  public static final String MANIFEST_TOO_DEEP = "MANIFEST_TOO_DEEP";
  public static final String MANIFEST_VERSION_INVALID = "MANIFEST_VERSION_INVALID";
  public static final String MANIFEST_ENTRY_INVALID = "MANIFEST_ENTRY_INVALID";
  public static final String MANIFEST_INTEGRITY_INVALID = "MANIFEST_INTEGRITY_INVALID";
  public static final String MANIFEST_SCHEMA_INVALID = "MANIFEST_SCHEMA_INVALID";
  /** A schema that refers back to itself without consuming input ({@code {"$ref": "#"}}): validating it would never end. */
  public static final String MANIFEST_SCHEMA_CYCLE = "MANIFEST_SCHEMA_CYCLE";
  /** A schema whose evaluation chain or work per input value exceeds the host's fixed budget. */
  public static final String MANIFEST_SCHEMA_TOO_COSTLY = "MANIFEST_SCHEMA_TOO_COSTLY";
  /** A schema pattern that the linear-time matcher (RE2 syntax) cannot compile: backreferences, lookaround, over 1024 characters. */
  public static final String MANIFEST_SCHEMA_PATTERN_UNSUPPORTED = "MANIFEST_SCHEMA_PATTERN_UNSUPPORTED";

  // Inspection.
  public static final String MODULE_PATH_ESCAPES = "MODULE_PATH_ESCAPES";
  public static final String MODULE_MISSING = "MODULE_MISSING";
  public static final String MODULE_INTEGRITY_MISMATCH = "MODULE_INTEGRITY_MISMATCH";
  public static final String ENTRY_CLASS_MISSING = "ENTRY_CLASS_MISSING";
  public static final String PACKAGE_HOST_SPI = "PACKAGE_HOST_SPI";
  public static final String PACKAGE_AGENT = "PACKAGE_AGENT";
  public static final String PACKAGE_CLASS_PATH = "PACKAGE_CLASS_PATH";
  public static final String PACKAGE_MANIFEST_ATTRIBUTE = "PACKAGE_MANIFEST_ATTRIBUTE";
  public static final String PACKAGE_STRAY_CLASS = "PACKAGE_STRAY_CLASS";
  public static final String CLASS_FILE_INVALID = "CLASS_FILE_INVALID";
  /** A class file newer than the running JVM reads, or one compiled with preview features. */
  public static final String CLASS_FILE_TOO_NEW = "CLASS_FILE_TOO_NEW";
  /**
   * Resolving the members a package's classes inherit would take more than the effect scan's
   * budget of steps through the package's own class hierarchy.
   */
  public static final String CLASS_HIERARCHY_TOO_COSTLY = "CLASS_HIERARCHY_TOO_COSTLY";
  /** A service provider registration ({@code META-INF/services/*}, in any case, or a module descriptor's {@code provides}). */
  public static final String PACKAGE_SERVICE_PROVIDER = "PACKAGE_SERVICE_PROVIDER";
  /** A module descriptor that {@code opens} packages. */
  public static final String PACKAGE_MODULE_OPENS = "PACKAGE_MODULE_OPENS";
  /** A class or resource (or the entry class) in {@code java.*}, {@code javax.*}, {@code jdk.*}, {@code sun.*}, {@code com.sun.*} or {@code dev.capability.*}. */
  public static final String PACKAGE_RESERVED_NAMESPACE = "PACKAGE_RESERVED_NAMESPACE";
  /** A {@code capability.json} anywhere but the package root (in {@code META-INF/}, in a module jar). */
  public static final String PACKAGE_SECOND_MANIFEST = "PACKAGE_SECOND_MANIFEST";
  /** A jar signature file ({@code META-INF/*.SF}, {@code .RSA}, {@code .DSA}, {@code .EC}, {@code SIG-*}) in the package or a module. */
  public static final String PACKAGE_SIGNED_JAR = "PACKAGE_SIGNED_JAR";

  // Effects.
  public static final String EFFECT_UNKNOWN = "EFFECT_UNKNOWN";
  public static final String EFFECT_SCOPE_INVALID = "EFFECT_SCOPE_INVALID";
  public static final String EFFECT_SCOPE_UNBOUNDED = "EFFECT_SCOPE_UNBOUNDED";
  public static final String EFFECT_UNDECLARED = "EFFECT_UNDECLARED";

  // Policies, approvals and plans.
  public static final String POLICY_DENIED = "POLICY_DENIED";
  public static final String APPROVAL_REFUSED = "APPROVAL_REFUSED";
  public static final String APPROVAL_FAILED = "APPROVAL_FAILED";
  public static final String APPROVAL_TIMED_OUT = "APPROVAL_TIMED_OUT";
  public static final String APPROVAL_INVALID = "APPROVAL_INVALID";
  public static final String APPROVAL_NOT_FOR_PLAN = "APPROVAL_NOT_FOR_PLAN";
  public static final String POLICY_FAILED = "POLICY_FAILED";
  public static final String INPUT_INVALID = "INPUT_INVALID";
  public static final String PLAN_DRIFT = "PLAN_DRIFT";
  /** A plan's JSON that is not a plan ({@code CapabilityPlans.fromJson}), or a text that is not a plan fingerprint. */
  public static final String PLAN_INVALID = "PLAN_INVALID";
  /** An effect policy file that cannot be read or does not follow docs/schemas/effect-policy.schema.json. */
  public static final String POLICY_FILE_INVALID = "POLICY_FILE_INVALID";

  // Execution.
  public static final String EXECUTOR_UNKNOWN = "EXECUTOR_UNKNOWN";
  /** An executor setting ({@link ExecutorConfig#settings()}) has a value the executor does not accept. */
  public static final String EXECUTOR_SETTING_INVALID = "EXECUTOR_SETTING_INVALID";
  public static final String ISOLATION_UNAVAILABLE = "ISOLATION_UNAVAILABLE";
  /**
   * A run was granted {@code network.connect} and the executor cannot hold it to those scopes: the
   * backend does not supply filtered egress, no egress proxy is installed, or the executor runs
   * in-process. Never answered with the host network.
   */
  public static final String NETWORK_FILTER_UNAVAILABLE = NetworkFilterUnavailableException.CODE;
  /** A granted {@code filesystem.write} path has no directory; the operator creates it, the executor never does. */
  public static final String GRANT_PATH_MISSING = "GRANT_PATH_MISSING";
  /** A granted {@code filesystem.write} directory the sandbox's uid cannot write in; the operator changes its owner or mode. */
  public static final String GRANT_PATH_NOT_WRITABLE = "GRANT_PATH_NOT_WRITABLE";
  public static final String CAPABILITY_FAILED = "CAPABILITY_FAILED";
  public static final String OUTPUT_INVALID = "OUTPUT_INVALID";
  public static final String SUCCEEDED = "SUCCEEDED";
  /** The runtime's evidence store failed during a run ({@link RunNotRecordedException}); the same code as the kernel's. */
  public static final String EVIDENCE_NOT_RECORDED = "EVIDENCE_NOT_RECORDED";
}
