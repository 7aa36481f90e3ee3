package dev.capability.integrations.springai;

/**
 * The codes of the Spring AI integration's own errors. A refused execution policy keeps the
 * kernel's code ({@code POLICY_WRITABLE_BY_OTHERS}, {@code POLICY_INSIDE_REPOSITORY}, ...); an
 * effect policy or capability package the runtime refuses keeps the runtime's.
 */
public final class SpringAiCodes {
  /**
   * A {@code capability.*} property is missing or wrong: no {@code capability.repository}, a
   * repository that is not a directory, or a {@code capability.backend} that is not installed or
   * cannot run on this machine. The application does not start.
   */
  public static final String CONFIG_INVALID = "SPRING_AI_CONFIG_INVALID";

  private SpringAiCodes() {}
}
