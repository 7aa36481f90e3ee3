package dev.capability.kernel.api.policy;

/**
 * The stable codes of policy loading failures ({@link dev.capability.kernel.api.PolicyException})
 * and of command denials ({@link dev.capability.kernel.api.Decision}). See {@code docs/policy.md}
 * for what triggers each one.
 */
public final class PolicyCodes {
  private PolicyCodes() {}

  /** The layer of the checks every policy gets, before the operator's rules. */
  public static final String LAYER_BUILTIN = "builtin";
  /** The layer of the operator's policy. */
  public static final String LAYER_OPERATOR = "operator";

  // Loading a policy file.
  /** {@code CAPABILITY_EXECUTION_POLICY_PATH} is absent or empty. */
  public static final String POLICY_PATH_UNSET = "POLICY_PATH_UNSET";
  /** The policy path is relative. */
  public static final String POLICY_PATH_NOT_ABSOLUTE = "POLICY_PATH_NOT_ABSOLUTE";
  /** Nothing exists at the policy path. */
  public static final String POLICY_NOT_FOUND = "POLICY_NOT_FOUND";
  /** The policy path is not its own real path: a symbolic link, {@code .} or {@code ..} in it. */
  public static final String POLICY_PATH_NOT_CANONICAL = "POLICY_PATH_NOT_CANONICAL";
  /** The policy file lies inside the target repository. */
  public static final String POLICY_INSIDE_REPOSITORY = "POLICY_INSIDE_REPOSITORY";
  /** The policy path is not a regular file. */
  public static final String POLICY_NOT_REGULAR_FILE = "POLICY_NOT_REGULAR_FILE";
  /** The policy file is owned by another user than the process's. */
  public static final String POLICY_NOT_OWNED = "POLICY_NOT_OWNED";
  /** The policy file is group- or world-writable. */
  public static final String POLICY_WRITABLE_BY_OTHERS = "POLICY_WRITABLE_BY_OTHERS";
  /** A directory above the policy file can be changed by another user. */
  public static final String POLICY_PARENT_WRITABLE = "POLICY_PARENT_WRITABLE";
  /** The policy file lacks its owner-read permission or could not be read. */
  public static final String POLICY_UNREADABLE = "POLICY_UNREADABLE";
  /** The policy file exceeds the size bound. */
  public static final String POLICY_TOO_LARGE = "POLICY_TOO_LARGE";
  /** The policy file changed while it was being read. */
  public static final String POLICY_CHANGED = "POLICY_CHANGED";

  // Parsing and validating a policy, from a file or from code.
  /** The policy is not valid JSON or breaks a rule of the format. */
  public static final String POLICY_INVALID = "POLICY_INVALID";
  /** The policy's {@code version} is not one this kernel knows. */
  public static final String POLICY_VERSION_UNSUPPORTED = "POLICY_VERSION_UNSUPPORTED";
  /**
   * The policy inherits, sets or lets requests give an environment variable on the built-in deny
   * list (or, for requests, one of the names a request may never give).
   */
  public static final String POLICY_ENVIRONMENT_DENIED = "POLICY_ENVIRONMENT_DENIED";
  /** A {@code match} example was refused or a {@code notMatch} example was allowed. */
  public static final String POLICY_EXAMPLE_FAILED = "POLICY_EXAMPLE_FAILED";
  /**
   * A rule can never allow anything: its executable, an {@code exact} argument list or a
   * {@code match} example is one the built-in checks always refuse ({@code true}, {@code sleep 0},
   * a {@code .cmd} script, ...), or a part of its argument rules can never be reached or satisfied.
   */
  public static final String POLICY_RULE_NEVER_ALLOWS = "POLICY_RULE_NEVER_ALLOWS";
  /**
   * A rule for {@code awk} or {@code sed} lets a request choose the program the tool runs in its
   * own language ({@code awk 'BEGIN{system(...)}'}, {@code sed 'e id'}), and the rule does not say
   * {@code "arbitraryCode": true}.
   */
  public static final String POLICY_ARBITRARY_CODE_NOT_ACCEPTED = "POLICY_ARBITRARY_CODE_NOT_ACCEPTED";

  // Denials by the built-in layer.
  /** The argv is empty or an argument contains a NUL character. */
  public static final String ARGV_INVALID = "ARGV_INVALID";
  /**
   * The command does nothing whatever happens: {@code true}, {@code :}, {@code false},
   * {@code exit ...}, or {@code sleep} with only zero durations.
   */
  public static final String NOOP_COMMAND = "NOOP_COMMAND";
  /** argv[0] names a Windows {@code .cmd} or {@code .bat} script. */
  public static final String WINDOWS_SHIM = "WINDOWS_SHIM";
  /**
   * A request environment variable has a malformed name, or a value with a NUL character or a
   * broken surrogate, which no process can receive.
   */
  public static final String ENVIRONMENT_INVALID = "ENVIRONMENT_INVALID";
  /**
   * A request environment variable is one the kernel never takes from a request: the built-in
   * deny list ({@code LD_PRELOAD}, ...), {@code GIT_*}, {@code PATH}, {@code HOME},
   * {@code XDG_CONFIG_HOME}, {@code XDG_CONFIG_DIRS}.
   */
  public static final String ENVIRONMENT_DENIED = "ENVIRONMENT_DENIED";

  // Denials while resolving and pinning the executable (layer builtin, but for the hash pin).
  /** A {@code PATH} entry is relative or empty, or lies inside the repository where the policy forbids repository executables. */
  public static final String PATH_SHADOWING = "PATH_SHADOWING";
  /** argv[0] is not a valid path, is not on the {@code PATH}, or does not exist. */
  public static final String EXECUTABLE_NOT_FOUND = "EXECUTABLE_NOT_FOUND";
  /** argv[0] names a relative path. */
  public static final String EXECUTABLE_NOT_ABSOLUTE = "EXECUTABLE_NOT_ABSOLUTE";
  /** argv[0] resolves to something that is not an executable regular file. */
  public static final String EXECUTABLE_NOT_EXECUTABLE = "EXECUTABLE_NOT_EXECUTABLE";
  /** argv[0] names a path that is not its canonical path. */
  public static final String EXECUTABLE_NOT_CANONICAL = "EXECUTABLE_NOT_CANONICAL";
  /** The executable lies inside the repository and the policy does not allow repository executables. */
  public static final String REPOSITORY_EXECUTABLE = "REPOSITORY_EXECUTABLE";
  /**
   * The executable is a hard link to a file inside the repository (or cannot be shown not to be
   * one), and the policy does not allow repository executables.
   */
  public static final String REPOSITORY_EXECUTABLE_LINK = "REPOSITORY_EXECUTABLE_LINK";
  /**
   * Someone other than root and the kernel's user could have written the executable: it is
   * world-writable, or another user owns it and it is group-writable or lies below a directory
   * that is group- or world-writable.
   */
  public static final String EXECUTABLE_WRITABLE_BY_OTHERS = "EXECUTABLE_WRITABLE_BY_OTHERS";
  /** The executable could not be opened, pinned and hashed, or its file data could not be read. */
  public static final String EXECUTABLE_UNREADABLE = "EXECUTABLE_UNREADABLE";
  /** The executable's SHA-256 differs from the rule's pin (layer operator). */
  public static final String EXECUTABLE_HASH_MISMATCH = "EXECUTABLE_HASH_MISMATCH";

  // Denials by the operator layer.
  /** A request environment variable whose name the policy's {@code environment.request} does not list. */
  public static final String ENVIRONMENT_NOT_ALLOWED = "ENVIRONMENT_NOT_ALLOWED";
  /** No executable rule matches argv[0]. */
  public static final String EXECUTABLE_NOT_ALLOWED = "EXECUTABLE_NOT_ALLOWED";
  /** The arguments equal none of the rule's exact argument lists, and the rule has no typed rules. */
  public static final String ARGV_NOT_ALLOWED = "ARGV_NOT_ALLOWED";
  /** A subcommand is missing or not listed. */
  public static final String SUBCOMMAND_NOT_ALLOWED = "SUBCOMMAND_NOT_ALLOWED";
  /**
   * A flag is not listed with exactly this spelling, a letter of a bundle or of tar's old-style
   * options is not listed, or a flag stands where the program does not read it (find's leading
   * options after the starting points); also a listed find primary whose arguments the rule
   * declares otherwise than find reads them.
   */
  public static final String FLAG_NOT_ALLOWED = "FLAG_NOT_ALLOWED";
  /** A flag's value is missing, not accepted by its rule, or given to a flag that takes none. */
  public static final String FLAG_VALUE_INVALID = "FLAG_VALUE_INVALID";
  /**
   * An operand where none are allowed, before a required {@code --}, or, in find syntax, a word
   * after the expression began that is neither a primary, its argument nor an operator.
   */
  public static final String OPERAND_NOT_ALLOWED = "OPERAND_NOT_ALLOWED";
  /**
   * An operand holding {@code =} where the rule's {@code keyValueOperands} refuses it, or a
   * {@code NAME=value} operand whose {@code NAME} its {@code keyValues} does not list.
   */
  public static final String KEY_VALUE_NOT_ALLOWED = "KEY_VALUE_NOT_ALLOWED";
  /** An operand, or the value of a {@code NAME=value} operand, not accepted by its value rule. */
  public static final String OPERAND_INVALID = "OPERAND_INVALID";
  /** More operands than the rule's {@code maxCount}. */
  public static final String TOO_MANY_OPERANDS = "TOO_MANY_OPERANDS";
  /** Fewer operands than the rule's {@code minCount}. */
  public static final String TOO_FEW_OPERANDS = "TOO_FEW_OPERANDS";
  /** {@code --} where the rule forbids it, or, in find syntax, after the starting points. */
  public static final String DOUBLE_DASH_NOT_ALLOWED = "DOUBLE_DASH_NOT_ALLOWED";
}
