package dev.capability.kernel.api.authority;

/**
 * The stable codes of authority failures ({@link AuthorityException}) and of denials by an
 * authority layer ({@link dev.capability.kernel.api.Decision}). {@code docs/authority.md} says
 * what triggers each one.
 */
public final class AuthorityCodes {
  private AuthorityCodes() {}

  // Loading layers and scopes: nothing runs.
  /** A layer file path has a {@code .} or {@code ..} segment, starts with {@code ~}, or goes through a symbolic link. */
  public static final String LAYER_PATH_INVALID = "LAYER_PATH_INVALID";
  /** Nothing exists at a layer file path. */
  public static final String LAYER_NOT_FOUND = "LAYER_NOT_FOUND";
  /** A layer file is not a regular file, is too large, is not UTF-8, or could not be read. */
  public static final String LAYER_UNREADABLE = "LAYER_UNREADABLE";
  /** A layer is not valid JSON, breaks a rule of the format, or is given as the wrong kind. */
  public static final String LAYER_INVALID = "LAYER_INVALID";
  /** A layer allows something the operator's policy does not: an executable, network, project writes or a path. */
  public static final String LAYER_WIDENS_OPERATOR = "LAYER_WIDENS_OPERATOR";
  /** A write-scope or protected-path glob is malformed or uses unsupported syntax. */
  public static final String SCOPE_PATTERN_INVALID = "SCOPE_PATTERN_INVALID";
  /** The literal start of a write scope goes through a symbolic link in the repository. */
  public static final String SCOPE_THROUGH_SYMLINK = "SCOPE_THROUGH_SYMLINK";
  /** The repository's {@code .git} is a file that is not a readable {@code gitdir:} file. */
  public static final String GIT_DIRECTORY_INVALID = "GIT_DIRECTORY_INVALID";
  /** Git's configuration could not be listed to find the drivers and helpers to neutralize. */
  public static final String GIT_CONFIGURATION_UNREADABLE = "GIT_CONFIGURATION_UNREADABLE";

  // Denials.
  /** A path to decide is not a normalized repository-relative path. */
  public static final String PATH_INVALID = "PATH_INVALID";
  /** The path is protected: it, or a directory above it, is on the protected list, or it holds a protected path. */
  public static final String WRITE_PROTECTED = "WRITE_PROTECTED";
  /** A layer makes the repository read-only. */
  public static final String PROJECT_READ_ONLY = "PROJECT_READ_ONLY";
  /** The path matches none of a layer's write scopes. */
  public static final String WRITE_OUTSIDE_SCOPE = "WRITE_OUTSIDE_SCOPE";
  /** A write target goes through a symbolic link, or is a file with more than one hard link. */
  public static final String WRITE_THROUGH_LINK = "WRITE_THROUGH_LINK";
  /**
   * A writable root that does not exist could not be created before launch: something that is not
   * a directory is in its way, it is protected, or the directory could not be made. (A symbolic
   * link in its way is {@link #SCOPE_THROUGH_SYMLINK}.)
   */
  public static final String SCOPE_ROOT_NOT_CREATED = "SCOPE_ROOT_NOT_CREATED";
  /** A layer below the operator does not list the executable rule that matched the command. */
  public static final String EXECUTABLE_NOT_ALLOWED = "EXECUTABLE_NOT_ALLOWED";
  /** No network mode is allowed by every layer: the backend cannot hold the command to what the layers allow. */
  public static final String NETWORK_NOT_ENFORCEABLE = "NETWORK_NOT_ENFORCEABLE";
  /** A tool configuration file is reached through a symbolic link, is not a regular file, is too large, or cannot be read. */
  public static final String TOOL_CONFIGURATION_UNREADABLE = "TOOL_CONFIGURATION_UNREADABLE";
  /** A tool configuration file does not have its pinned hash, or exists where it must be absent. */
  public static final String TOOL_CONFIGURATION_MISMATCH = "TOOL_CONFIGURATION_MISMATCH";
  /** A git command sets configuration before its subcommand, which would undo the kernel's neutralization. */
  public static final String GIT_CONFIGURATION_OVERRIDE = "GIT_CONFIGURATION_OVERRIDE";
  /**
   * The configuration of a repository a git command may open sets a key that names a program the
   * kernel cannot keep from running; the message names the key and where it is set.
   */
  public static final String GIT_CONFIGURATION_REFUSED = "GIT_CONFIGURATION_REFUSED";
}
