package dev.capability.integrations.springai.internal;

import dev.capability.integrations.springai.SpringAiCodes;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.PolicyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a startup failure of the kernel's beans into Spring Boot's "APPLICATION FAILED TO START"
 * report: the refusal with its code as the description, and what the operator fixes as the action,
 * instead of a stack trace to read from the bottom.
 */
public final class CapabilityFailureAnalyzer extends AbstractFailureAnalyzer<CapabilityException> {
  /** Spring Boot creates the analyzer. */
  public CapabilityFailureAnalyzer() {}

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, CapabilityException cause) {
    return new FailureAnalysis(description(cause), action(cause), cause);
  }

  private static String description(CapabilityException cause) {
    String message = String.valueOf(cause.getMessage());
    return message.startsWith(cause.code()) ? message : cause.code() + ": " + message;
  }

  private static String action(CapabilityException cause) {
    if (cause instanceof PolicyException) {
      return "Fix the execution policy file named by capability.policy-path (see docs/policy.md): it must be an absolute, "
          + "canonical path outside capability.repository, a regular file owned by this user that no one else may write, "
          + "in directories no one else may change, and a valid policy. The application runs nothing until it is.";
    }
    if (cause.code().equals(SpringAiCodes.CONFIG_INVALID)) {
      return "Set the capability.* properties as the message says (see the Spring AI section of docs/integrations.md).";
    }
    return "Fix what " + cause.code() + " names, in the capability.* properties or the files they name "
        + "(see the Spring AI section of docs/integrations.md).";
  }
}
