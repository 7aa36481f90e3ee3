package dev.capability.capability.runtime;

/**
 * A second provider claiming the id {@code child-jvm}, listed only on the class path that {@link
 * ExecutorProvidersTest} builds, beside the real one.
 */
public final class SecondChildJvmProvider implements ExecutorProvider {
  @Override
  public String id() {
    return "child-jvm";
  }

  @Override
  public Availability probe() {
    return Availability.available("never created: the duplicate id stops the build first");
  }

  @Override
  public Executor create(ExecutorConfig config) {
    throw new AssertionError("a provider with a duplicate id must never be created");
  }
}
