/**
 * The evaluator's public API: {@link dev.capability.evaluator.EvaluationConfigs#load} reads a
 * configuration with the operator policy's file checks, {@link dev.capability.evaluator.Evaluator}
 * runs it, and {@link dev.capability.evaluator.EvaluationReport} holds what came out. See
 * {@code docs/evaluator-design.md}.
 */
@NullMarked
package dev.capability.evaluator;

import org.jspecify.annotations.NullMarked;
