package dev.capability.kernel.api.policy;

import java.util.Objects;
import java.util.Optional;

/**
 * What one repository file that changes a tool's behaviour (for example Maven's
 * {@code .mvn/jvm.config}) must be for the tool to run. The kernel hashes every named file into
 * the attestation, whatever its pin.
 *
 * @param expectation what the file must be
 * @param sha256 the lower-case hex SHA-256 its bytes must have; present exactly for {@link Expectation#SHA256}
 */
public record ToolConfigurationPin(Expectation expectation, Optional<String> sha256) {

  /** What a tool configuration file must be. */
  public enum Expectation {
    /** Anything, or absent: the file's hash is only recorded. */
    RECORDED,
    /** Absent: the command is refused while the file exists. */
    ABSENT,
    /** A regular file with exactly {@link #sha256()}. */
    SHA256
  }

  public ToolConfigurationPin {
    Objects.requireNonNull(expectation, "expectation");
    Objects.requireNonNull(sha256, "sha256");
    if ((expectation == Expectation.SHA256) != sha256.isPresent()) {
      throw new IllegalArgumentException("a pin has a SHA-256 exactly when it expects one");
    }
  }

  /** The file's hash is recorded, whatever it is. */
  public static ToolConfigurationPin recorded() {
    return new ToolConfigurationPin(Expectation.RECORDED, Optional.empty());
  }

  /** The file must not exist. */
  public static ToolConfigurationPin absent() {
    return new ToolConfigurationPin(Expectation.ABSENT, Optional.empty());
  }

  /** The file must have lower-case hex SHA-256 {@code sha256}. */
  public static ToolConfigurationPin sha256(String sha256) {
    return new ToolConfigurationPin(Expectation.SHA256, Optional.of(Objects.requireNonNull(sha256, "sha256")));
  }
}
