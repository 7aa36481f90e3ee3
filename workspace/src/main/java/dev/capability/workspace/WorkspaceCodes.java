package dev.capability.workspace;

/**
 * The stable codes of the shipped workspace. Those starting {@code WORKSPACE_INPUT_} fail the
 * launch ({@link dev.capability.kernel.api.backend.LaunchFailedException#code()}); the others are
 * a {@link WorkspaceOutcome#code()}: a returned archive refused, or none returned.
 */
public final class WorkspaceCodes {
  /** The input archive would be larger than {@link WorkspaceLimits#maxInputBytes()}. */
  public static final String INPUT_TOO_LARGE = "WORKSPACE_INPUT_TOO_LARGE";
  /** The repository holds a device, fifo or socket: only files, directories and links are shipped. */
  public static final String INPUT_SPECIAL_FILE = "WORKSPACE_INPUT_SPECIAL_FILE";
  /** A file changed since the run's snapshot, or while it was being shipped. */
  public static final String INPUT_CHANGED = "WORKSPACE_INPUT_CHANGED";
  /** A path of the repository could not be read or named faithfully in the archive. */
  public static final String INPUT_UNREADABLE = "WORKSPACE_INPUT_UNREADABLE";

  /** The backend did not hand the writable roots back, or their stream failed. */
  public static final String NOT_RETURNED = "WORKSPACE_NOT_RETURNED";
  /** An entry's name holds a {@code ..} segment or is absolute. */
  public static final String RETURN_TRAVERSAL = "WORKSPACE_RETURN_TRAVERSAL";
  /** An entry's name is empty, holds NUL or is not valid UTF-8. */
  public static final String RETURN_HOSTILE_NAME = "WORKSPACE_RETURN_HOSTILE_NAME";
  /** An entry's name or link target is longer than {@link WorkspaceLimits#maxNameBytes()}. */
  public static final String RETURN_NAME_TOO_LONG = "WORKSPACE_RETURN_NAME_TOO_LONG";
  /** An entry lies outside every writable root (or replaces a root by something not a directory). */
  public static final String RETURN_OUTSIDE_ROOTS = "WORKSPACE_RETURN_OUTSIDE_ROOTS";
  /** An entry lies on a protected path or in a git directory, or would replace a directory holding one. */
  public static final String RETURN_PROTECTED_PATH = "WORKSPACE_RETURN_PROTECTED_PATH";
  /** A symbolic link's target is absolute or leaves the link's writable root. */
  public static final String RETURN_LINK_OUT = "WORKSPACE_RETURN_LINK_OUT";
  /** A hard link entry: never accepted, whatever it names. */
  public static final String RETURN_HARD_LINK = "WORKSPACE_RETURN_HARD_LINK";
  /** A character or block device or a fifo. */
  public static final String RETURN_SPECIAL_FILE = "WORKSPACE_RETURN_SPECIAL_FILE";
  /** A sparse file, a GNU extension, a global pax header or any other type not listed as accepted. */
  public static final String RETURN_UNSUPPORTED_TYPE = "WORKSPACE_RETURN_UNSUPPORTED_TYPE";
  /** The same name twice, or an entry below a name that is not a directory. */
  public static final String RETURN_NAME_CONFLICT = "WORKSPACE_RETURN_NAME_CONFLICT";
  /** The archive is larger than {@link WorkspaceLimits#maxReturnBytes()}. */
  public static final String RETURN_TOO_LARGE = "WORKSPACE_RETURN_TOO_LARGE";
  /** The archive holds more entries than {@link WorkspaceLimits#maxEntries()}. */
  public static final String RETURN_TOO_MANY_ENTRIES = "WORKSPACE_RETURN_TOO_MANY_ENTRIES";
  /** A broken header (checksum, magic, number), a malformed pax record, a truncated archive or data after its end. */
  public static final String RETURN_CORRUPT = "WORKSPACE_RETURN_CORRUPT";
  /**
   * The archive passed, but applying it failed part way (a local path became a symbolic link, a
   * disk error): the writable roots may hold part of it, and the audit that follows sees what they hold.
   */
  public static final String RETURN_APPLY_FAILED = "WORKSPACE_RETURN_APPLY_FAILED";

  private WorkspaceCodes() {}
}
