package dev.capability.kernel.core.internal.pipeline;

/** One step of the command pipeline. A stage either adds to the context or denies it. */
interface Stage {
  void apply(ExecutionContext context);
}
