package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.Executor;
import dev.capability.capability.runtime.ExecutorConfig;
import dev.capability.capability.runtime.ExecutorProvider;

/** Provides the {@code in-process} executor, which takes no settings and no backend. */
public final class InProcessExecutorProvider implements ExecutorProvider {
  @Override
  public String id() {
    return InProcessExecutor.ID;
  }

  @Override
  public Availability probe() {
    return Availability.available("runs in this JVM, with no boundary");
  }

  @Override
  public Executor create(ExecutorConfig config) {
    return new InProcessExecutor();
  }
}
