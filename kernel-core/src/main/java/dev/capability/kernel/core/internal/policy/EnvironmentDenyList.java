package dev.capability.kernel.core.internal.policy;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Environment variables that make a program load or run code it was not asked to, in two kinds.
 *
 * <p>Process-wide ones act on every program and every shell in the command's process tree,
 * whatever the tool: dynamic loader and C library settings, shell start-up hooks and exported
 * functions. No policy may pass them.
 *
 * <p>Toolchain ones act on one interpreter or build tool: JVM, Maven, Gradle, Ant and sbt option
 * variables, Node, npm, Python, pytest, Perl, Ruby, PHP, Lua, Go, Rust/Cargo and .NET hooks. An
 * operator who needs one names it in {@code environment.acceptDenied} as well as in
 * {@code inherit} or {@code set}, and the attestation marks it; a request never gives one.
 *
 * <p>Only {@code GIT_*} may be set to a fixed value by the operator without that, since git reads
 * many harmless settings that way, but it is never inherited. Names are compared
 * case-insensitively. docs/policy.md lists the same names with what each one runs.
 */
final class EnvironmentDenyList {
  private EnvironmentDenyList() {}

  /** Names glibc drops for set-user-ID programs (its unsecure variables) and shell hooks. */
  private static final Set<String> PROCESS_WIDE_NAMES = Set.of(
      "GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE",
      "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS",
      "BASH_ENV", "ENV", "ZDOTDIR", "IFS", "PS4", "SHELLOPTS", "BASHOPTS", "PROMPT_COMMAND", "CDPATH");

  private static final List<String> PROCESS_WIDE_PREFIXES = List.of("LD_", "DYLD_", "BASH_FUNC_");

  private static final Set<String> TOOLCHAIN_NAMES = Set.of(
      "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS", "CLASSPATH",
      "MAVEN_OPTS", "MAVEN_ARGS", "GRADLE_OPTS", "GRADLE_USER_HOME", "ANT_OPTS", "ANT_ARGS", "SBT_OPTS",
      "NODE_OPTIONS", "NODE_PATH", "NODE_REPL_EXTERNAL_MODULE",
      "PYTEST_ADDOPTS", "PYTEST_PLUGINS",
      "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB", "PHPRC", "PHP_INI_SCAN_DIR",
      "GOFLAGS", "GOENV",
      "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTDOC", "RUSTFLAGS", "RUSTDOCFLAGS",
      "CARGO_ENCODED_RUSTFLAGS", "CARGO_ENCODED_RUSTDOCFLAGS",
      "DOTNET_STARTUP_HOOKS", "DOTNET_ADDITIONAL_DEPS",
      "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "LESSOPEN", "LESSCLOSE",
      // Options an ordinary tool reads from the environment, some of which run programs
      // (tar --checkpoint-action=exec, rg --pre, make's flags) or load modules and plugins.
      "TAR_OPTIONS", "GZIP", "BZIP", "BZIP2", "XZ_OPT", "XZ_DEFAULTS", "GREP_OPTIONS", "RIPGREP_CONFIG_PATH",
      "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "ERL_AFLAGS", "ERL_FLAGS", "ERL_ZFLAGS",
      "GIO_EXTRA_MODULES", "GTK_MODULES", "SASL_PATH", "KUBECONFIG", "AWS_CONFIG_FILE", "GNUPGHOME",
      // Makes getopt stop at the first operand, so tools read argv otherwise than the policy's rules.
      "POSIXLY_CORRECT");

  /** {@code LUA_INIT_5_4} and the like, Cargo's build and target settings (wrappers, runners, linkers). */
  private static final List<String> TOOLCHAIN_PREFIXES = List.of(
      "PYTHON", "NPM_CONFIG_", "LUA_INIT", "LUA_PATH", "LUA_CPATH", "CARGO_BUILD_", "CARGO_TARGET_",
      "CORECLR_", "COR_PROFILER");

  private static final String GIT_PREFIX = "GIT_";

  /**
   * Names a request may never give, although an operator may inherit or set them: they decide
   * which executable the kernel resolves ({@code PATH}) or where programs read configuration that
   * can run commands ({@code HOME} holds {@code ~/.gitconfig}), and a request's values come from
   * the untrusted party.
   */
  private static final Set<String> NEVER_FROM_REQUESTS = Set.of(
      "PATH", "HOME", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS",
      // Names that choose which program a tool starts: the toolchain, an editor, a pager, a shell.
      "JAVA_HOME", "MAVEN_HOME", "M2_HOME", "GOROOT", "CARGO_HOME", "RUSTUP_HOME", "CC", "CXX", "CPP", "AR",
      "EDITOR", "VISUAL", "PAGER", "MANPAGER", "SHELL", "BROWSER", "SSH_ASKPASS", "SUDO_ASKPASS");

  /**
   * Why {@code name} may not be passed to a command, or empty when it may.
   *
   * @param setByOperator true for a fixed value from the policy, false for a name inherited from the host
   * @param accepted names the operator accepts although the deny list names them ({@code environment.acceptDenied})
   */
  static Optional<String> reason(String name, boolean setByOperator, Set<String> accepted) {
    Optional<String> processWide = processWideReason(name);
    if (processWide.isPresent()) {
      return processWide;
    }
    Optional<String> toolchain = toolchainReason(name);
    if (toolchain.isPresent()) {
      return accepted.contains(name) ? Optional.empty()
          : Optional.of(toolchain.get() + " and is passed to commands only when environment.acceptDenied names it too");
    }
    if (!setByOperator && name.toUpperCase(Locale.ROOT).startsWith(GIT_PREFIX)) {
      return Optional.of(name + " (GIT_*) may only be set to a fixed value by the policy, never inherited");
    }
    return Optional.empty();
  }

  /** Why {@code name} may not be passed to a command when no deny-listed name is accepted. */
  static Optional<String> reason(String name, boolean setByOperator) {
    return reason(name, setByOperator, Set.of());
  }

  /**
   * Why no policy may accept {@code name} in {@code environment.acceptDenied}, or empty when one
   * may: a loader or shell variable acts on every program the command starts.
   */
  static Optional<String> acceptReason(String name) {
    return processWideReason(name).map(reason -> reason + ", not even when accepted: it acts on every program the command starts");
  }

  /** Whether {@code name} is a toolchain variable, the kind an operator may accept. */
  static boolean acceptable(String name) {
    return toolchainReason(name).isPresent();
  }

  /** Why a request may not give {@code name} a value, or empty when the policy may allow it. */
  static Optional<String> requestReason(String name) {
    Optional<String> toolchain = toolchainReason(name);
    if (toolchain.isPresent()) {
      return Optional.of(toolchain.get() + " and is never taken from a request");
    }
    Optional<String> denied = reason(name, false);
    if (denied.isPresent()) {
      return denied;
    }
    if (NEVER_FROM_REQUESTS.contains(name.toUpperCase(Locale.ROOT))) {
      return Optional.of(name + " decides what runs or which configuration is read and is never taken from a request");
    }
    return Optional.empty();
  }

  private static Optional<String> processWideReason(String name) {
    return matching(name, PROCESS_WIDE_NAMES, PROCESS_WIDE_PREFIXES).map(reason -> reason + " and is never passed to commands");
  }

  private static Optional<String> toolchainReason(String name) {
    return matching(name, TOOLCHAIN_NAMES, TOOLCHAIN_PREFIXES);
  }

  private static Optional<String> matching(String name, Set<String> names, List<String> prefixes) {
    String upper = name.toUpperCase(Locale.ROOT);
    if (names.contains(upper)) {
      return Optional.of(name + " makes programs load or run code");
    }
    for (String prefix : prefixes) {
      if (upper.startsWith(prefix)) {
        return Optional.of(name + " (" + prefix + "*) makes programs load or run code");
      }
    }
    return Optional.empty();
  }
}
