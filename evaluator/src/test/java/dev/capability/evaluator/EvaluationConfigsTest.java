package dev.capability.evaluator;

import static dev.capability.evaluator.EvaluationFixture.TEST_COMMAND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.PolicyException;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The configuration is read like the operator's policy: a file inside the repository, writable by
 * others or reached through a symbolic link is refused before a byte is parsed, and a command with
 * a shell operator when it is loaded; nothing runs and no worktree is made.
 */
class EvaluationConfigsTest {
  @TempDir Path tmp;
  private EvaluationFixture fixture;

  @BeforeEach
  void setUp() throws IOException {
    fixture = new EvaluationFixture(tmp);
  }

  private AbstractThrowableAssert<?, ? extends Throwable> assertRefused(Path file, String code) {
    AbstractThrowableAssert<?, ? extends Throwable> refused = assertThatThrownBy(() -> EvaluationConfigs.load(file))
        .isInstanceOfSatisfying(EvaluationException.class, e -> assertThat(e.code()).as(e.getMessage()).isEqualTo(code));
    assertThat(fixture.output).doesNotExist();
    assertThat(Git.git(fixture.repository, "worktree", "list", "--porcelain")).containsOnlyOnce("worktree ");
    return refused;
  }

  private static String causeCode(Throwable e) {
    return ((PolicyException) e.getCause()).code();
  }

  @Test
  void loadsEveryMemberOfAConfiguration() throws IOException {
    String json = fixture.config(TEST_COMMAND + ", {\"argv\": [\"grep\", \"-q\", \"PASS\", \"status.txt\"], \"maxOutputBytes\": 4096}",
        ", \"baseline\": \"pass\", \"backend\": \"bwrap\", \"requiredCapabilities\": [\"PID_NAMESPACE\"]");
    Path file = fixture.operatorFile("evaluation.json", json);

    EvaluationConfig config = EvaluationConfigs.load(file);

    assertThat(config.source()).isEqualTo(file);
    assertThat(config.sha256()).startsWith("sha256:").hasSize(71);
    assertThat(config.repository()).isEqualTo(fixture.repository);
    assertThat(config.candidates()).containsExactly(new Candidate("pass", "candidate/pass"),
        new Candidate("fail", fixture.failCommit), new Candidate("hang", "main"));
    assertThat(config.commands()).containsExactly(
        new EvaluationCommand("test", List.of("java", "Check.java"), Duration.ofSeconds(20), null),
        new EvaluationCommand("grep -q PASS status.txt", List.of("grep", "-q", "PASS", "status.txt"), null, 4096L));
    assertThat(config.baseline()).isEqualTo("pass");
    assertThat(config.backend()).isEqualTo("bwrap");
    assertThat(config.requiredCapabilities()).extracting(Enum::name).containsExactly("PID_NAMESPACE");
  }

  @Test
  void refusesAConfigurationInsideTheRepository() throws IOException {
    Path file = fixture.repository.resolve("evaluation.json");
    Files.writeString(file, fixture.config(TEST_COMMAND, ""));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

    assertRefused(file, EvaluatorCodes.EVALUATION_CONFIG_UNTRUSTED)
        .satisfies(e -> assertThat(causeCode(e)).isEqualTo("POLICY_INSIDE_REPOSITORY"))
        .hasMessageContaining("evaluation configuration file");
  }

  @Test
  void refusesAGroupWritableConfiguration() throws IOException {
    Path file = fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, ""));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));

    assertRefused(file, EvaluatorCodes.EVALUATION_CONFIG_UNTRUSTED)
        .satisfies(e -> assertThat(causeCode(e)).isEqualTo("POLICY_WRITABLE_BY_OTHERS"));
  }

  @Test
  void refusesAConfigurationReachedThroughASymbolicLink() throws IOException {
    Path file = fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, ""));
    Path link = Files.createSymbolicLink(fixture.operator.resolve("link.json"), file);

    assertRefused(link, EvaluatorCodes.EVALUATION_CONFIG_UNTRUSTED)
        .satisfies(e -> assertThat(causeCode(e)).isEqualTo("POLICY_PATH_NOT_CANONICAL"));
  }

  @Test
  void refusesAConfigurationInsideTheOutputDirectory() throws IOException {
    Path file = fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, "")
        .replace("\"outputDirectory\": \"" + fixture.output + "\"", "\"outputDirectory\": \"" + fixture.operator + "\""));

    assertThatThrownBy(() -> EvaluationConfigs.load(file))
        .isInstanceOfSatisfying(EvaluationException.class, e -> assertThat(e.code()).isEqualTo(EvaluatorCodes.EVALUATION_CONFIG_UNTRUSTED))
        .hasMessageContaining("inside the output directory");
  }

  @ParameterizedTest
  @ValueSource(strings = {"grep -q PASS status.txt | cat", "grep -q PASS status.txt; sleep 1", "grep -q PASS status.txt > out",
      "grep -q $(whoami) status.txt", "grep -q PASS status.txt && echo"})
  void refusesACommandWithAShellOperatorWhenItIsLoaded(String command) throws IOException {
    Path file = fixture.operatorFile("evaluation.json",
        fixture.config(TEST_COMMAND + ", {\"command\": \"" + command + "\"}", ""));

    assertRefused(file, EvaluatorCodes.EVALUATION_CONFIG_INVALID)
        .hasMessageContaining("/commands/1/command")
        .hasMessageContaining("\"" + command + "\"")
        .hasMessageMatching("(?s).* at offset \\d+.*");
  }

  @Test
  void refusesAPolicyFileThatFailsThePolicyChecks() throws IOException {
    Files.setPosixFilePermissions(fixture.policy, PosixFilePermissions.fromString("rw-rw-rw-"));
    Path file = fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, ""));

    assertRefused(file, EvaluatorCodes.EVALUATION_POLICY_REFUSED)
        .hasMessageContaining("/policy").hasMessageContaining("POLICY_WRITABLE_BY_OTHERS");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "\"colour\": \"red\"|unknown member \"colour\"",
      "\"baseline\": \"nobody\"|/baseline",
      "\"backend\": 7|/backend",
      "\"requiredCapabilities\": [\"TELEPATHY\"]|/requiredCapabilities/0"})
  void refusesABadMemberNamingIt(String member, String named) throws IOException {
    Path file = fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, ", " + member));

    assertRefused(file, EvaluatorCodes.EVALUATION_CONFIG_INVALID).hasMessageContaining(named);
  }

  @Test
  void refusesAnotherVersion() throws IOException {
    Path file = fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, "").replace("\"version\": 1", "\"version\": 2"));

    assertRefused(file, EvaluatorCodes.EVALUATION_CONFIG_INVALID).hasMessageContaining("/version");
  }

  @Test
  void refusesAnOutputDirectoryInsideTheRepository() throws IOException {
    Path inside = fixture.repository.resolve("evaluation-out");
    Path file = fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, "")
        .replace("\"outputDirectory\": \"" + fixture.output + "\"", "\"outputDirectory\": \"" + inside + "\""));

    assertRefused(file, EvaluatorCodes.EVALUATION_CONFIG_INVALID).hasMessageContaining("/outputDirectory");
    assertThat(inside).doesNotExist();
  }

  @Test
  void refusesARelativeRepository() throws IOException {
    Path file = fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, "")
        .replace("\"repository\": \"" + fixture.repository + "\"", "\"repository\": \"repo\""));

    assertRefused(file, EvaluatorCodes.EVALUATION_CONFIG_INVALID).hasMessageContaining("/repository");
  }

  @Test
  void refusesACommandWithBothArgvAndCommand() throws IOException {
    Path file = fixture.operatorFile("evaluation.json",
        fixture.config("{\"argv\": [\"grep\"], \"command\": \"grep\"}", ""));

    assertRefused(file, EvaluatorCodes.EVALUATION_CONFIG_INVALID).hasMessageContaining("/commands/0");
  }
}
