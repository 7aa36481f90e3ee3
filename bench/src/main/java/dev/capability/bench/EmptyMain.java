package dev.capability.bench;

/** Does nothing: what {@link ChildJvmBenchmark} measures with it is the JVM's own start and exit. */
public final class EmptyMain {
  private EmptyMain() {}

  public static void main(String[] args) {
    // Nothing: the JVM's start and exit are the measurement.
  }
}
