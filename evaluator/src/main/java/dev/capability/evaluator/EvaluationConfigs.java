package dev.capability.evaluator;

import dev.capability.evaluator.internal.ConfigReader;
import java.nio.file.Path;

/**
 * Reads evaluation configurations. The format is {@code docs/schemas/evaluation-config.schema.json}.
 */
public final class EvaluationConfigs {
  private EvaluationConfigs() {}

  /**
   * Loads the configuration file at {@code file}. Before a byte is parsed the file gets the
   * operator policy's checks: absolute and canonical, no symbolic link, a regular file owned by
   * this process's user, not group- or world-writable, under directories no other user can
   * change. Then it is parsed and checked: every member known, every path absolute, the file, the
   * policy file and the output directory outside the repository, the file and the policy outside
   * the output directory, every command string split without a shell, and the operator policy
   * loaded (with its own checks). Nothing runs and nothing is written.
   *
   * @throws EvaluationException {@code EVALUATION_CONFIG_UNTRUSTED} when the file fails a check of
   *     where it lies or who can write it, {@code EVALUATION_CONFIG_INVALID} when its content is
   *     wrong (naming the member), {@code EVALUATION_POLICY_REFUSED} when the policy cannot be loaded
   */
  public static EvaluationConfig load(Path file) {
    return ConfigReader.load(file);
  }
}
