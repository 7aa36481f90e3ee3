package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code capability policy init|path|show}, and exec/check finding the policy init wrote. */
class PolicyCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path TEMPLATE = Path.of("..", "examples", "policies", "readonly-dev.json");

  @TempDir Path tmp;

  private Map<String, String> xdg() {
    return Map.of("XDG_CONFIG_HOME", tmp.resolve("config").toString());
  }

  private Path defaultFile() {
    return tmp.resolve("config/capability/policy.json");
  }

  @Test
  void initWritesTheTemplateWhereTheKernelAcceptsItAndPrintsThePath() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run(xdg(), "", "policy", "init");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    Path file = defaultFile().toRealPath();
    assertThat(outcome.out()).isEqualTo(file + "\n");
    assertThat(Files.readString(file)).as("the jar's template is examples/policies/readonly-dev.json").isEqualTo(Files.readString(TEMPLATE));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent().getParent()))).isEqualTo("rwx------");
    assertThat(Files.getAttribute(file, "unix:uid")).isEqualTo(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    LoadedPolicy loaded = ExecutionPolicies.load(file, null);
    assertThat(loaded.source()).isEqualTo(file.toString());
    try (var siblings = Files.list(file.getParent())) {
      assertThat(siblings).as("no staging file is left behind").containsExactly(file);
    }
  }

  @Test
  void initNeverReplacesAnExistingPolicyWithoutForce() throws Exception {
    assertThat(CliRunner.run(xdg(), "", "policy", "init").exitCode()).isZero();
    Path file = defaultFile();
    String operators = Files.readString(file).replace("\"timeoutMillis\": 600000", "\"timeoutMillis\": 1000");
    Files.writeString(file, operators);

    CliRunner.Outcome again = CliRunner.run(xdg(), "", "policy", "init", "--json");

    assertThat(again.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(JSON.readTree(again.out()).get("error").get("code").asText()).isEqualTo("POLICY_EXISTS");
    assertThat(Files.readString(file)).isEqualTo(operators);

    CliRunner.Outcome forced = CliRunner.run(xdg(), "", "policy", "init", "--force", "--json");

    assertThat(forced.exitCode()).as(forced.out()).isZero();
    JsonNode result = JSON.readTree(forced.out());
    assertThat(result.get("path").asText()).isEqualTo(file.toRealPath().toString());
    assertThat(result.get("template").asText()).isEqualTo("readonly-dev");
    assertThat(Files.readString(file)).isEqualTo(Files.readString(TEMPLATE));
    assertThat(Files.readString(Path.of(result.get("backup").asText()))).as("the operator's file is kept").isEqualTo(operators);
  }

  @Test
  void initRefusesADirectoryOthersCanWriteAndWritesNothing() throws Exception {
    Path capability = Files.createDirectories(tmp.resolve("config/capability"));
    Files.setPosixFilePermissions(capability, PosixFilePermissions.fromString("rwxrwxrwx"));

    CliRunner.Outcome outcome = CliRunner.run(xdg(), "", "policy", "init");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).contains("POLICY_PARENT_WRITABLE");
    try (var files = Files.list(capability)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void anUnknownTemplateIsRefusedNamingTheTemplates() {
    CliRunner.Outcome outcome = CliRunner.run(xdg(), "", "policy", "init", "--from", "permissive");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).contains("POLICY_TEMPLATE_UNKNOWN").contains("readonly-dev");
    assertThat(defaultFile()).doesNotExist();
  }

  @Test
  void checkAndExecUseTheInitPolicyWhenNoOtherIsNamed() throws Exception {
    CliRunner.Outcome before = CliRunner.run(xdg(), "", "check", "--json", "--", "rm", "-rf", "/");
    assertThat(before.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(JSON.readTree(before.out()).get("error").get("message").asText()).contains("capability policy init");

    assertThat(CliRunner.run(xdg(), "", "policy", "init").exitCode()).isZero();
    CliRunner.Outcome check = CliRunner.run(xdg(), "", "check", "--json", "--", "rm", "-rf", "/");
    CliRunner.Outcome exec = CliRunner.run(xdg(), "", "exec", "--", "rm", "-rf", "/");

    assertThat(check.exitCode()).as(check.out()).isEqualTo(ExitCodes.DENIED);
    assertThat(JSON.readTree(check.out()).get("layer").asText()).isIn("builtin", "operator");
    assertThat(exec.exitCode()).as(exec.err()).isEqualTo(ExitCodes.KERNEL_REFUSED);
    assertThat(exec.err()).contains("denied");
  }

  @Test
  void pathAndShowNameThePolicyAndWhereTheChoiceCameFrom() throws Exception {
    assertThat(CliRunner.run(xdg(), "", "policy", "init").exitCode()).isZero();
    Path file = defaultFile().toRealPath();

    CliRunner.Outcome path = CliRunner.run(xdg(), "", "policy", "path", "--json");
    CliRunner.Outcome show = CliRunner.run(xdg(), "", "policy", "show", "--json");
    Map<String, String> both = Map.of("XDG_CONFIG_HOME", tmp.resolve("config").toString(), KernelOptions.POLICY_ENV, "/etc/elsewhere.json");
    CliRunner.Outcome fromEnvironment = CliRunner.run(both, "", "policy", "path");

    assertThat(JSON.readTree(path.out()).get("path").asText()).isEqualTo(file.toString());
    assertThat(JSON.readTree(path.out()).get("origin").asText()).isEqualTo("default");
    JsonNode shown = JSON.readTree(show.out());
    assertThat(shown.get("hash").asText()).isEqualTo(ExecutionPolicies.load(file, null).hash());
    assertThat(shown.get("policy").get("executables").has("git")).isTrue();
    assertThat(fromEnvironment.out()).isEqualTo("/etc/elsewhere.json (environment)\n");
  }
}
