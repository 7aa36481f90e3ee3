package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole work-plan flow through the CLI on a real Git repository with a tiny Java project,
 * under real bwrap: contract, a refused plan, a saved and amended plan, two phases verified and
 * completed (one refused as stale on the way), and the ledger verifying intact at the end.
 */
class WorkPlanCommandsTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> ENVIRONMENT = Map.of("PATH", "/usr/bin:/bin");

  @TempDir Path tmp;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void aPlanIsWorkedThroughTheCliAndTheLedgerVerifiesIntact() throws Exception {
    BWRAP.backend();
    Files.setAttribute(tmp, "unix:mode", 0755);
    Path repo = repository();
    Path policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(policy, """
        {"version": 1, "network": "none", "projectWrites": "scoped", "writeScopes": ["src/**", "target/**"],
         "executables": {
           "javac": {"name": "javac", "exact": [["-d", "target/classes", "src/main/java/Calc.java"],
                                                 ["-d", "target/test-classes", "-cp", "target/classes", "src/test/java/CalcTest.java"]]},
           "java": {"name": "java", "exact": [["-cp", "target/classes:target/test-classes", "CalcTest"]]}}}
        """);
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
    Path contract = write(tmp, "contract.json", "{\"version\": 1, \"writeScopes\": [\"src/**\", \"target/**\"]}");
    Path piped = write(tmp, "piped.json", "{\"version\": 1, \"id\": \"calc\", \"phases\": [{\"id\": \"impl\", \"goal\": \"g\","
        + " \"writeScopes\": [\"src/main/**\", \"target/**\"], \"acceptance\": [\"javac -d target/classes src/main/java/Calc.java && id\"]}]}");
    Path plan = write(tmp, "plan.json", """
        {"version": 1, "id": "calc", "title": "add Calc", "phases": [
          {"id": "impl", "goal": "Calc adds", "writeScopes": ["src/main/**", "target/**"],
           "acceptance": ["javac -d target/classes src/main/java/Calc.java"]},
          {"id": "tests", "goal": "a test proves it", "writeScopes": ["src/test/**", "target/**"],
           "acceptance": ["javac -d target/test-classes -cp target/classes src/test/java/CalcTest.java"], "dependsOn": ["impl"]}]}
        """);
    Path patch = write(tmp, "patch.json", "[{\"op\": \"add\", \"path\": \"/phases/1/acceptance/-\","
        + " \"value\": \"java -cp target/classes:target/test-classes CalcTest\"}]");

    assertThat(cli("contract", "set", contract.toString(), "--repo", repo.toString(), "--policy", policy.toString()).exitCode()).isZero();
    CliRunner.Outcome refused = cli("work-plan", "save", piped.toString(), "--repo", repo.toString(), "--policy", policy.toString(), "--json");
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(JSON.readTree(refused.out()).at("/error/code").asText()).isEqualTo("PLAN_COMMAND_SHELL_SYNTAX");
    CliRunner.Outcome saved = cli("work-plan", "save", plan.toString(), "--repo", repo.toString(), "--policy", policy.toString(), "--json");
    assertThat(saved.exitCode()).as(saved.err()).isZero();
    assertThat(JSON.readTree(saved.out()).get("revision").asInt()).isEqualTo(1);
    CliRunner.Outcome amended = cli("work-plan", "amend", patch.toString(), "--repo", repo.toString(), "--policy", policy.toString(), "--json");
    assertThat(amended.exitCode()).as(amended.err()).isZero();
    assertThat(JSON.readTree(amended.out()).get("revision").asInt()).isEqualTo(2);
    assertThat(cli("work-plan", "warnings", "--repo", repo.toString(), "--policy", policy.toString(), "--json").out()).isEqualTo("{\"warnings\":[]}\n");

    write(repo, "src/main/java/Calc.java", "public class Calc {\n  static int add(int a, int b) {\n    return a + b;\n  }\n}\n");
    CliRunner.Outcome verified = phase("verify", repo, policy);
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(JSON.readTree(verified.out()).get("passed").asBoolean()).isTrue();
    write(repo, "src/main/java/Calc.java", "public class Calc {\n  static int add(int a, int b) {\n    return a - b;\n  }\n}\n");
    CliRunner.Outcome stale = phase("complete", repo, policy);
    assertThat(stale.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(JSON.readTree(stale.out()).at("/error/code").asText()).isEqualTo("EVIDENCE_STALE");
    assertThat(phase("verify", repo, policy).exitCode()).isZero();
    CliRunner.Outcome completed = phase("complete", repo, policy);
    assertThat(completed.exitCode()).as(completed.err()).isZero();
    assertThat(JSON.readTree(completed.out()).get("nextPhaseId").asText()).isEqualTo("tests");

    write(repo, "src/test/java/CalcTest.java", "public class CalcTest {\n  public static void main(String[] args) {\n"
        + "    if (Calc.add(2, 3) != 5) {\n      System.exit(1);\n    }\n  }\n}\n");
    CliRunner.Outcome failing = phase("verify", repo, policy);
    assertThat(failing.exitCode()).isEqualTo(ExitCodes.VERIFICATION_FAILED);
    JsonNode failure = JSON.readTree(failing.out());
    assertThat(failure.get("failureCode").asText()).isEqualTo("COMMAND_FAILED");
    assertThat(failure.at("/runs/1/exitCode").asInt()).isEqualTo(1);
    write(repo, "src/main/java/Calc.java", "public class Calc {\n  static int add(int a, int b) {\n    return a + b;\n  }\n}\n");
    CliRunner.Outcome outside = phase("verify", repo, policy);
    assertThat(outside.exitCode()).isEqualTo(ExitCodes.VERIFICATION_FAILED);
    // The class file is still the broken one, so the test fails first; the audit names the change all the same.
    assertThat(JSON.readTree(outside.out()).get("violations").toString()).as("the tests phase may not change Calc.java")
        .contains("\"path\":\"src/main/java/Calc.java\"");

    CliRunner.Outcome status = phase("status", repo, policy);
    assertThat(JSON.readTree(status.out()).get("active").asText()).isEqualTo("tests");
    assertThat(JSON.readTree(status.out()).get("completed").toString()).isEqualTo("[\"impl\"]");

    CliRunner.Outcome intact = cli("ledger", "verify", "--repo", repo.toString());
    assertThat(intact.exitCode()).as(intact.out() + intact.err()).isZero();
    assertThat(intact.out()).startsWith("INTACT: ");
  }

  private static CliRunner.Outcome cli(String... args) {
    return CliRunner.run(ENVIRONMENT, "", args);
  }

  private static CliRunner.Outcome phase(String subcommand, Path repo, Path policy) {
    return cli("phase", subcommand, "--repo", repo.toString(), "--policy", policy.toString(), "--backend", "bwrap", "--json");
  }

  private int repositories;

  /** A fresh Git repository the sandbox's uid can write in, with one commit. */
  private Path repository() throws IOException {
    Path repo = Files.createDirectory(tmp.resolve("repo" + repositories++));
    Files.setAttribute(repo, "unix:mode", 01777);
    Files.writeString(repo.resolve(".gitignore"), "target/\n.capability/\n");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", ".gitignore");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "first");
    return repo.toRealPath();
  }

  /** Writes {@code content} at {@code path}, each missing directory made writable by the sandbox's uid as the repository is. */
  private static Path write(Path root, String path, String content) throws IOException {
    Path file = root.resolve(path);
    Path directory = root;
    for (Path name : root.relativize(file.getParent())) {
      if (name.toString().isEmpty()) {
        break;
      }
      directory = directory.resolve(name);
      if (!Files.isDirectory(directory)) {
        Files.createDirectory(directory);
        Files.setAttribute(directory, "unix:mode", 01777);
      }
    }
    return Files.writeString(file, content);
  }

  private void git(Path directory, String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("git"));
    argv.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile()).redirectErrorStream(true);
    builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    builder.environment().put("HOME", tmp.toString());
    Process process = builder.start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as("git %s: %s", argv, output).isZero();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
