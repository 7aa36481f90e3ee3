/**
 * The evaluator: a fixed set of commands run against candidate commits, each checked out in its
 * own Git worktree, every command through a {@code CommandKernel} under the operator's policy,
 * and the results reported side by side. Only {@code dev.capability.evaluator} is exported.
 */
module dev.capability.evaluator {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.kernel.core;
  requires com.fasterxml.jackson.databind;

  exports dev.capability.evaluator;
}
