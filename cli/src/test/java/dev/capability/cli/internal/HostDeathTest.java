package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.capability.cli.internal.LiveProcesses.running;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.IsolationCapability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host JVM dies (SIGKILL: no shutdown hook, no finally block runs) while {@code exec} runs a
 * command that started a grandchild in a session of its own, as a daemon would. Under Bubblewrap,
 * which advertises {@code TERMINATION_ON_HOST_EXIT}, the whole tree ends with the host; under the
 * process backend, which does not, it keeps running, and a policy that requires the capability
 * refuses that backend.
 */
class HostDeathTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  /** Generous bounds for a loaded machine; the test waits for events, it never measures speed. */
  private static final long WAIT_MILLIS = 60_000;

  @TempDir Path tmp;
  private Path tool;
  private Path policy;
  /** Unique arguments of the two sleeps, so that they can be found among the host's processes. */
  private String command;
  private String daemon;
  private Process host;

  @BeforeEach
  void fixtures() throws IOException {
    String mark = Long.toString(Math.floorMod(new SecureRandom().nextLong(), 1_000_000_000L));
    daemon = "86399." + mark;
    command = "86398." + mark;
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    tool = bin.resolve("tool");
    // The daemon leaves the command's session (setsid -f forks, and the fork calls setsid) and its
    // parent exits at once; then the command itself sleeps as the direct child.
    Files.writeString(tool, "#!/bin/sh\n/usr/bin/setsid -f /usr/bin/sleep " + daemon + "\nexec /usr/bin/sleep " + command + "\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    tool = tool.toRealPath();
    policy = policy("policy.json", "");
  }

  private Path policy(String name, String extraMembers) throws IOException {
    Path file = Files.createDirectories(tmp.resolve("etc")).resolve(name);
    // The timeout is far away, so that only the host's death can end the command.
    Files.writeString(file, """
        {
          "version": 1,
          "network": "host",
          "timeoutMillis": 3600000,%s
          "executables": {"tool": {"path": "%s", "exact": [[]]}}
        }
        """.formatted(extraMembers, tool));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    return file;
  }

  @AfterEach
  void cleanUp() {
    if (host != null) {
      host.destroyForcibly();
    }
    // Whatever a failed test left running ends here.
    LiveProcesses.killAll(daemon);
    LiveProcesses.killAll(command);
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void underBwrapTheWholeTreeEndsWhenTheHostJvmIsKilled() throws Exception {
    assertThat(BWRAP.backend().capabilities()).contains(IsolationCapability.TERMINATION_ON_HOST_EXIT);
    JsonNode doctor = doctorEntry("bwrap");
    assertThat(doctor.get("sandbox").asBoolean()).isTrue();
    assertThat(doctor.get("bounds").get("hostExit").asBoolean()).isTrue();

    startHostAndKillItOnceTheTreeRuns("bwrap");

    awaitGone(daemon);
    awaitGone(command);
  }

  @Test
  void underTheProcessBackendTheTreeOutlivesAKilledHostWhichIsWhyItLacksTheCapability() throws Exception {
    startHostAndKillItOnceTheTreeRuns("process");

    // Not a promise anybody wants: the evidence that the process backend must not advertise it.
    assertThat(running(daemon)).as("the daemon outlived the host").isNotEmpty();
    assertThat(running(command)).as("the command outlived the host").isNotEmpty();
    assertThat(doctorEntry("process").get("bounds").get("hostExit").asBoolean()).isFalse();
  }

  @Test
  void aPolicyThatRequiresTerminationOnHostExitRefusesTheProcessBackendBeforeLaunch() throws Exception {
    Path requiring = policy("requiring.json", "\n  \"requiredCapabilities\": [\"TERMINATION_ON_HOST_EXIT\"],");

    CliRunner.Outcome outcome = CliRunner.run("exec", "--policy", requiring.toString(), "--backend", "process", "--", tool.toString());

    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(126);
    assertThat(outcome.err()).contains("ISOLATION_UNAVAILABLE").contains("TERMINATION_ON_HOST_EXIT");
    assertThat(running(command)).isEmpty();
    assertThat(running(daemon)).isEmpty();
  }

  private static JsonNode doctorEntry(String id) throws IOException {
    for (JsonNode backend : new ObjectMapper().readTree(CliRunner.run("doctor", "--json").out()).get("backends")) {
      if (backend.get("id").asText().equals(id)) {
        return backend;
      }
    }
    throw new AssertionError("doctor does not list " + id);
  }

  /** Runs {@code exec} in a JVM of its own and kills that JVM with SIGKILL once both sleeps run. */
  private void startHostAndKillItOnceTheTreeRuns(String backend) throws Exception {
    Path out = tmp.resolve("host.out");
    Path err = tmp.resolve("host.err");
    host = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "dev.capability.cli.Main",
        "exec", "--policy", policy.toString(), "--backend", backend, "--", tool.toString())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (running(daemon).isEmpty() || running(command).isEmpty()) {
      if (!host.isAlive()) {
        fail("the host ended before the tree ran (exit " + host.exitValue() + "): " + Files.readString(err));
      }
      if (System.currentTimeMillis() > deadline) {
        fail("the tree did not start within " + WAIT_MILLIS + " ms: " + Files.readString(err));
      }
      Thread.sleep(50);
    }
    host.destroyForcibly();
    assertThat(host.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS)).as("the host JVM died").isTrue();
  }

  private static void awaitGone(String argument) throws InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (!running(argument).isEmpty()) {
      if (System.currentTimeMillis() > deadline) {
        fail("still running " + WAIT_MILLIS + " ms after the host died: sleep " + argument + " as " + running(argument));
      }
      Thread.sleep(50);
    }
  }
}
