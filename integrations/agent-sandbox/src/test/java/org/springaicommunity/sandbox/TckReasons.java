package org.springaicommunity.sandbox;

/** Why a TCK test fails on {@code KernelSandbox} by design; the same sentences are in docs/integrations.md. */
final class TckReasons {
  static final String STDERR_REDIRECT = "by design: the shell command \"echo 'error-message' >&2\" needs a shell"
      + " (a redirection); KernelSandbox never starts one and refuses it with SHELL_SYNTAX";
  static final String AND_LIST_AND_REDIRECT = "by design: the shell command \"echo 'to-stdout' && echo 'to-stderr' >&2\""
      + " needs a shell (&& and a redirection); KernelSandbox never starts one and refuses it with SHELL_SYNTAX";
  static final String HIDDEN_HOME = "by design: the sandbox never shows the host's /home, so 'ls /home' exits 2"
      + " with 'No such file or directory'";

  private TckReasons() {}
}
