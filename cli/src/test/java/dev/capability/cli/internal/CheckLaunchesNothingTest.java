package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.testing.RequiredBackends;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capability check} in a real CLI process, with the real Docker daemon: once {@code doctor}
 * has filled the probe cache, a check creates no container (the daemon's own event log, filtered to
 * the containers the SDK labels with the check's pid, says so); with no cache it does probe, which
 * shows the count could fail.
 */
class CheckLaunchesNothingTest {
  @TempDir Path tmp;
  private Path tool;
  private Path policy;
  private Path cacheHome;

  @BeforeEach
  void fixtures() throws Exception {
    BackendProvider.Availability docker = new DockerBackendProvider().probe();
    if (!docker.available()) {
      RequiredBackends.skipOrFail("docker is not available: " + docker.reason());
    }
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
    tool = tmp.resolve("tool");
    Files.writeString(tool, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    policy = tmp.resolve("policy.json");
    Files.writeString(policy, """
        {"version": 1, "network": "none", "executables": {"tool": {"path": "%s", "exact": [["status"]]}}}
        """.formatted(tool.toRealPath()));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
    cacheHome = tmp.resolve("cache");
  }

  /** The CLI in a JVM of its own; its pid and output. */
  private record Cli(long pid, int exitCode, String out, String err) {}

  private Cli cli(String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"), "dev.capability.cli.Main"));
    argv.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(argv);
    builder.environment().clear();
    builder.environment().putAll(Map.of("PATH", System.getenv("PATH"), "XDG_CACHE_HOME", cacheHome.toString()));
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
    return new Cli(process.pid(), process.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** The SDK's containers the daemon created since {@code since} whose launching JVM had {@code pid}. */
  private static long containersCreatedBy(long pid, Instant since) throws IOException, InterruptedException {
    Process events = new ProcessBuilder("docker", "events", "--since", String.valueOf(since.getEpochSecond() - 1),
        "--until", String.valueOf(Instant.now().getEpochSecond() + 1), "--filter", "type=container", "--filter", "event=create",
        "--filter", "label=dev.capability.sdk=1", "--format", "{{index .Actor.Attributes \"dev.capability.jvm\"}}")
        .redirectErrorStream(true).start();
    String lines = new String(events.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(events.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(events.exitValue()).as(lines).isZero();
    return lines.lines().filter(label -> label.startsWith(pid + ":")).count();
  }

  @Test
  void aCheckAfterDoctorCreatesNoContainerAndStillNamesTheBackend() throws Exception {
    Instant before = Instant.now();
    Cli cold = cli("check", "--policy", policy.toString(), "--", tool.toString(), "status");
    assertThat(cold.exitCode()).as(cold.err()).isZero();
    assertThat(containersCreatedBy(cold.pid(), before)).as("a check with nothing cached probes docker: the count works").isPositive();

    Cli doctor = cli("doctor");
    assertThat(doctor.exitCode()).as(doctor.err()).isZero();
    assertThat(cacheHome.resolve("capability/backend-probes/docker.properties")).exists();

    Instant start = Instant.now();
    Cli warm = cli("check", "--policy", policy.toString(), "--", tool.toString(), "status");
    assertThat(warm.exitCode()).as(warm.err()).isZero();
    assertThat(warm.out()).isEqualTo(cold.out()).startsWith("ALLOW ");
    assertThat(warm.err()).isEmpty();
    assertThat(containersCreatedBy(warm.pid(), start)).isZero();
  }
}
