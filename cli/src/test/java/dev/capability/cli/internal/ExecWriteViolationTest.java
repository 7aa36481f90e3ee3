package dev.capability.cli.internal;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write outside the scope changes exec's exit code and says so, on a real git repository. */
class ExecWriteViolationTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Path repo;
  private Path policy;
  private Path writer;

  @BeforeEach
  void fixtures() throws Exception {
    repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Files.createDirectories(repo.resolve("src"));
    Files.writeString(repo.resolve("README.md"), "# demo\n");
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "init");
    writer = Files.createDirectories(tmp.resolve("bin")).resolve("writer");
    // Writes inside the scope, or also outside it, and exits with the code it is given.
    Files.writeString(writer, "#!/bin/sh\necho gen > src/Gen.txt\n[ \"$1\" = outside ] && echo x > README.md\nexit \"$2\"\n");
    Files.setPosixFilePermissions(writer, PosixFilePermissions.fromString("rwxr-xr-x"));
    writer = writer.toRealPath();
    policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(policy, """
        {"version": 1, "network": "host", "projectWrites": "scoped", "writeScopes": ["src/**"],
         "executables": {"writer": {"path": "%s", "exact": [["inside", "0"], ["outside", "0"], ["outside", "3"]]}}}
        """.formatted(writer));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
  }

  private CliRunner.Outcome exec(String... argv) {
    List<String> args = new ArrayList<>(List.of("exec", "--policy", policy.toString(), "--repo", repo.toString(),
        "--backend", "process"));
    args.addAll(List.of(argv));
    return CliRunner.run(args.toArray(String[]::new));
  }

  @Test
  void aWriteOutsideTheScopeExitsWithTheViolationCodeAndOneLineOnStderr() {
    CliRunner.Outcome outcome = exec("--", writer.toString(), "outside", "0");

    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(ExitCodes.WRITE_VIOLATION).isEqualTo(123);
    List<String> lines = outcome.err().lines().filter(line -> line.contains("write violation")).toList();
    assertThat(lines).singleElement().asString()
        .startsWith("capability: write violation: 1 path written where the policy allows no writes, first \"README.md\"")
        .endsWith("the command's exit code was 0; exiting 123");
  }

  @Test
  void theViolationCodeWinsOverTheCommandsOwnFailure() {
    CliRunner.Outcome outcome = exec("--", writer.toString(), "outside", "3");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.WRITE_VIOLATION);
    assertThat(outcome.err()).contains("the command's exit code was 3");
  }

  @Test
  void writesInsideTheScopeKeepTheCommandsExitCodeAndSayNothing() {
    CliRunner.Outcome outcome = exec("--", writer.toString(), "inside", "0");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.err()).doesNotContain("violation");
  }

  @Test
  void underJsonTheExitCodeChangesAndTheViolationIsInTheAttestationNotOnStderr() throws Exception {
    CliRunner.Outcome outcome = exec("--json", "--", writer.toString(), "outside", "0");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.WRITE_VIOLATION);
    assertThat(outcome.err()).doesNotContain("violation");
    JsonNode result = JSON.readTree(outcome.out());
    assertThat(result.get("exitCode").asInt()).isZero();
    assertThat(result.at("/attestation/violations/0/path").asText()).isEqualTo("README.md");
  }
}
