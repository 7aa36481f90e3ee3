package dev.capability.backend.docker;

/**
 * What {@code capability image} does (its {@code ImageCommand} calls exactly this), in a JVM of its
 * own so that a test can point it at a daemon through the environment: {@code DOCKER_HOST}, {@code
 * DOCKER_TLS_VERIFY}, {@code DOCKER_CERT_PATH}. Prints the image id on stdout and each build step
 * on stderr. Not API; public only so that a JVM can start it.
 */
public final class RuntimeImageMain {
  private RuntimeImageMain() {}

  /** Argument: the tag. */
  public static void main(String[] args) {
    System.out.println(LocalRuntimeImage.ensure(args[0], System.err::println));
  }
}
