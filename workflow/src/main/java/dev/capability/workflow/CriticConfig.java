package dev.capability.workflow;

import java.util.Objects;

/**
 * The critic of a project contract: an operator-owned command run through the kernel after a
 * phase's acceptance commands, with the phase's evidence summary as JSON on standard input. Exit
 * status 0 approves.
 *
 * @param command the command, split without a shell
 * @param blocking whether its verdict gates completion; otherwise it is recorded as advice
 */
public record CriticConfig(String command, boolean blocking) {
  public CriticConfig {
    Objects.requireNonNull(command, "command");
  }
}
