package dev.capability.junit5;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Lets the sample test classes run only when a test starts them through the engine test kit with
 * {@value #PARAMETER} set, never on their own: some of them fail on purpose.
 */
final class OnlyUnderTestKit implements ExecutionCondition {
  static final String PARAMETER = "capability.junit5.samples";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return context.getConfigurationParameter(PARAMETER).isPresent()
        ? ConditionEvaluationResult.enabled("started by the engine test kit")
        : ConditionEvaluationResult.disabled("a sample for the engine test kit, not a test of its own");
  }
}
