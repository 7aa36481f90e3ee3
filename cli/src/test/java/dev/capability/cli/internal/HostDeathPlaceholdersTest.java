package dev.capability.cli.internal;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host JVM dies (SIGKILL) while {@code exec} runs under Bubblewrap with the whole repository
 * writable, so the backend had made mount points for the absent protected paths ({@code
 * .capability}, {@code .bashrc}, {@code mvnw}, ...). The next ledger-recording {@code exec} works,
 * and afterwards nothing of the dead run is left in the repository.
 */
class HostDeathPlaceholdersTest {
  private static final BackendGate BWRAP =
      BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  /** Generous bound for a loaded machine; the test waits for an event, it never measures speed. */
  private static final long WAIT_MILLIS = 60_000;

  @TempDir Path tmp;
  private Process host;

  @AfterEach
  void cleanUp() {
    if (host != null) {
      host.destroyForcibly();
    }
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void afterTheHostJvmIsKilledTheNextLedgerRecordingRunWorksAndNoPlaceholderRemains()
      throws Exception {
    BWRAP.backend();
    open(tmp);
    Path repo = Files.createDirectories(tmp.resolve("repo"));
    Files.writeString(repo.resolve("README.md"), "# demo\n");
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(
        repo,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-q",
        "-m",
        "init");
    // Writable by whatever uid the sandbox runs as.
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxrwxrwx"));
    String mark = "86397." + Math.floorMod(new SecureRandom().nextLong(), 1_000_000_000L);
    Path tool = open(tmp.resolve("bin")).resolve("tool");
    Files.writeString(
        tool, "#!/bin/sh\n[ \"$1\" = wait ] && exec /usr/bin/sleep " + mark + "\nexit 0\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    tool = tool.toRealPath();
    Path policy = open(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(
        policy,
        """
        {"version": 1, "network": "host", "timeoutMillis": 3600000,
         "projectWrites": "scoped", "writeScopes": ["**"],
         "executables": {"tool": {"path": "%s", "exact": [["wait"], ["quick"]]}}}
        """
            .formatted(tool));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
    List<String> before = entries(repo);

    Path err = tmp.resolve("host.err");
    host =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.capability.cli.Main",
                "exec",
                "--policy",
                policy.toString(),
                "--repo",
                repo.toString(),
                "--backend",
                "bwrap",
                "--",
                tool.toString(),
                "wait")
            .redirectOutput(tmp.resolve("host.out").toFile())
            .redirectError(err.toFile())
            .start();
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (!sleeping(mark)) {
      if (!host.isAlive()) {
        fail("the host ended before the command ran: " + Files.readString(err));
      }
      if (System.currentTimeMillis() > deadline) {
        fail("the command did not start within " + WAIT_MILLIS + " ms: " + Files.readString(err));
      }
      Thread.sleep(50);
    }
    host.destroyForcibly();
    assertThat(host.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS)).as("the host JVM died").isTrue();

    CliRunner.Outcome next =
        CliRunner.run(
            "exec",
            "--policy",
            policy.toString(),
            "--repo",
            repo.toString(),
            "--backend",
            "bwrap",
            "--",
            tool.toString(),
            "quick");

    assertThat(next.exitCode()).as(next.err()).isZero();
    assertThat(repo.resolve(".capability").resolve("state.db")).as("the run was recorded").exists();
    List<String> expected = new ArrayList<>(before);
    expected.add(".capability");
    assertThat(entries(repo)).as("nothing but the ledger was added").containsExactlyInAnyOrderElementsOf(expected);
  }

  private static List<String> entries(Path directory) throws IOException {
    try (Stream<Path> list = Files.list(directory)) {
      return list.map(p -> p.getFileName().toString()).toList();
    }
  }

  private static boolean sleeping(String argument) throws IOException {
    try (Stream<Path> proc = Files.list(Path.of("/proc"))) {
      return proc.filter(p -> p.getFileName().toString().matches("\\d+"))
          .anyMatch(p -> arguments(p).contains(argument));
    }
  }

  private static List<String> arguments(Path entry) {
    try {
      return List.of(
          new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8)
              .split("\0"));
    } catch (IOException e) {
      return List.of(); // it ended while being read
    }
  }

  private static Path open(Path directory) throws IOException {
    Files.createDirectories(directory);
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    return directory;
  }
}
