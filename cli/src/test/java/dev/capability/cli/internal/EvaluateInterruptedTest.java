package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code capability evaluate} process, a JVM of its own, is sent SIGTERM or SIGINT while
 * a candidate's command runs (a long {@code sleep} under the process backend, which would outlive
 * the JVM if nobody ended it): the process exits, the running command and its tree are ended, no
 * worktree is left under the output directory or in Git's list, and the main tree is untouched.
 */
class EvaluateInterruptedTest {
  /** Generous bounds for a loaded machine; the test waits for events, it never measures speed. */
  private static final long WAIT_MILLIS = 120_000;

  @TempDir Path tmp;
  private EvaluationFixture fixture;
  private Process cli;

  @BeforeEach
  void fixture() throws IOException {
    fixture = EvaluationFixture.create(tmp);
  }

  @AfterEach
  void cleanUp() {
    if (cli != null) {
      cli.destroyForcibly();
    }
    LiveProcesses.killAll(fixture.sleep);
  }

  @Test
  void sigtermEndsTheCommandAndRemovesEveryWorktreeBeforeTheProcessExits() throws Exception {
    List<String> before = fixture.mainTreeState();
    startAndAwaitTheSleep();

    cli.destroy(); // SIGTERM

    assertEndedCleanly(143, before);
  }

  @Test
  void sigintEndsTheCommandAndRemovesEveryWorktreeBeforeTheProcessExits() throws Exception {
    List<String> before = fixture.mainTreeState();
    startAndAwaitTheSleep();

    Process kill = new ProcessBuilder("kill", "-INT", Long.toString(cli.pid())).inheritIO().start();
    assertThat(kill.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS) && kill.exitValue() == 0).as("kill -INT was sent").isTrue();

    assertEndedCleanly(130, before);
  }

  @Test
  void sigtermDuringParallelCandidatesEndsEveryCommandAndRemovesEveryWorktree() throws Exception {
    Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "--parallel 2 needs two processors");
    List<String> before = fixture.mainTreeState();
    Path config = fixture.config("hang-twice.json", "[{\"name\": \"hangs\", \"ref\": \"main\"}, {\"name\": \"hangs too\", \"ref\": \"main\"}]",
        "[{\"name\": \"check\", \"argv\": [\"sh\", \"check.sh\"], \"timeoutSeconds\": 3600}]");
    start(config, 2);

    cli.destroy(); // SIGTERM

    assertEndedCleanly(143, before);
  }

  /** Starts the CLI on the hanging commit, with a timeout far away, and waits until its sleep runs. */
  private void startAndAwaitTheSleep() throws Exception {
    Path config = fixture.config("hang.json", "[{\"name\": \"hangs\", \"ref\": \"main\"}]",
        "[{\"name\": \"check\", \"argv\": [\"sh\", \"check.sh\"], \"timeoutSeconds\": 3600}]");
    start(config, 1);
  }

  /** Starts the CLI on {@code config} with {@code --parallel parallel}, and waits until that many candidates' sleeps run. */
  private void start(Path config, int parallel) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+DisableAttachMechanism", "-cp", System.getProperty("java.class.path"), "dev.capability.cli.Main",
        "evaluate", "--parallel", Integer.toString(parallel), config.toString())
        .redirectOutput(tmp.resolve("cli.out").toFile())
        .redirectError(tmp.resolve("cli.err").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(EvaluationFixture.environment());
    cli = builder.start();
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (stderr().split("check: started", -1).length - 1 < parallel || LiveProcesses.running(fixture.sleep).size() < parallel) {
      if (!cli.isAlive()) {
        fail("the CLI ended before its command ran (exit " + cli.exitValue() + "): " + stderr());
      }
      if (System.currentTimeMillis() > deadline) {
        fail("the command did not start within " + WAIT_MILLIS + " ms: " + stderr());
      }
      Thread.sleep(50);
    }
    assertThat(fixture.leftWorktrees()).as("each running candidate's worktree exists while it runs").hasSize(parallel);
  }

  private void assertEndedCleanly(int signalExit, List<String> before) throws Exception {
    assertThat(cli.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS)).as("the CLI exited: %s", stderr()).isTrue();
    assertThat(cli.exitValue()).as(stderr()).isEqualTo(signalExit);
    assertThat(LiveProcesses.running(fixture.sleep)).as("the command's sleep was ended with the CLI").isEmpty();
    assertThat(fixture.leftWorktrees()).as("worktrees under the output directory").isEmpty();
    assertThat(fixture.gitWorktrees()).containsExactly("worktree " + fixture.repository);
    assertThat(fixture.mainTreeState()).isEqualTo(before);
    JsonNode report = new ObjectMapper().readTree(fixture.output.resolve("report.json").toFile());
    assertThat(report.get("interrupted").asBoolean()).as("the report written on the way out says so").isTrue();
    assertThat(Files.readString(tmp.resolve("cli.out"), StandardCharsets.UTF_8))
        .as("the hook waited for the command to print its summary").contains(" interrupted").contains("report: ");
  }

  private String stderr() throws IOException {
    return Files.readString(tmp.resolve("cli.err"), StandardCharsets.UTF_8);
  }
}
