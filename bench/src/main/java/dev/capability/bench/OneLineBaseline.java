package dev.capability.bench;

/** The baseline of {@link WholeProcessRounds} for the CLI's start-up: a bare JVM printing one line. */
public final class OneLineBaseline {
  private OneLineBaseline() {}

  public static void main(String[] args) {
    System.out.println("hello");
  }
}
