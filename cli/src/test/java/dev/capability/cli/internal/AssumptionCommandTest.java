package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.ledger.SqliteLedger;
import dev.capability.workflow.WorkPlans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capability assumption} on a real Git repository and its real ledger, whose contract and
 * plan were set through the Java API: a confidence outside [0, 1] is refused with its code and exit
 * 5 and nothing is stored; an assumption is recorded, invalidated into a radius inside the phase,
 * expanded only with a justification; the ledger verifies intact.
 */
class AssumptionCommandTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> ENVIRONMENT = Map.of("PATH", "/usr/bin:/bin");

  @TempDir Path tmp;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  private static Path write(Path dir, String name, String content) throws Exception {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return file;
  }

  private CliRunner.Outcome cli(Path repo, Path policy, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--repo", repo.toString(), "--policy", policy.toString(), "--json"));
    return CliRunner.run(ENVIRONMENT, "", all.toArray(String[]::new));
  }

  @Test
  void assumptionsAreRecordedInvalidatedAndExpandedThroughTheCli() throws Exception {
    BWRAP.backend();
    Path repo = Files.createDirectories(tmp.resolve("repo"));
    Process git = new ProcessBuilder("git", "init", "-q", repo.toString()).inheritIO().start();
    assertThat(git.waitFor()).isZero();
    write(repo, "src/main/java/Calc.java", "class Calc { static int add(int a, int b) { return a + b; } }\n");
    write(repo, "src/main/java/Util.java", "class Util {}\n");
    Path policy = write(tmp, "etc/policy.json", """
        {"version": 1, "network": "none", "projectWrites": "scoped", "writeScopes": ["src/**"],
         "executables": {"grep": {"name": "grep", "exact": [["-q", "add", "src/main/java/Calc.java"]]}}}
        """);
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.load(policy, repo)).hostEnvironment(ENVIRONMENT).build();
        SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      WorkPlans plans = WorkPlans.builder(kernel, ledger, repo).build();
      plans.setContract("{\"version\": 1, \"writeScopes\": [\"src/**\"]}");
      plans.save("{\"version\": 1, \"id\": \"calc\", \"phases\": [{\"id\": \"impl\", \"goal\": \"g\", \"writeScopes\": [\"src/main/**\"],"
          + " \"acceptance\": [\"grep -q add src/main/java/Calc.java\"]}]}");
    }

    Path wrong = write(tmp, "wrong.json", "{\"version\": 1, \"id\": \"ints\", \"statement\": \"sums fit\", \"confidence\": 1.5}");
    CliRunner.Outcome refused = cli(repo, policy, "assumption", "record", wrong.toString());
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(JSON.readTree(refused.out()).at("/error/code").asText()).isEqualTo("ASSUMPTION_CONFIDENCE_INVALID");
    assertThat(JSON.readTree(cli(repo, policy, "assumption", "list").out()).get("assumptions")).isEmpty();

    Path ints = write(tmp, "ints.json", "{\"version\": 1, \"id\": \"ints\", \"statement\": \"sums fit in an int\", \"confidence\": 0.6,"
        + " \"links\": {\"files\": [\"src/main/java/Calc.java\", \"docs/notes.md\"]}}");
    CliRunner.Outcome recorded = cli(repo, policy, "assumption", "record", ints.toString());
    assertThat(recorded.exitCode()).as(recorded.err() + recorded.out()).isZero();
    assertThat(JSON.readTree(recorded.out()).get("status").asText()).isEqualTo("OPEN");

    CliRunner.Outcome invalidated = cli(repo, policy, "assumption", "invalidate", "ints", "--root-cause", "sums overflow");
    assertThat(invalidated.exitCode()).as(invalidated.err() + invalidated.out()).isZero();
    JsonNode radius = JSON.readTree(invalidated.out());
    assertThat(radius.get("radius").toString()).isEqualTo("[\"src/main/java/Calc.java\"]");
    assertThat(radius.get("excluded").has("docs/notes.md")).isTrue();

    CliRunner.Outcome blank = cli(repo, policy, "assumption", "expand", "ints", "--path", "src/main/java/Util.java", "--justification", "  ");
    assertThat(blank.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(JSON.readTree(blank.out()).at("/error/code").asText()).isEqualTo("JUSTIFICATION_REQUIRED");
    CliRunner.Outcome outside = cli(repo, policy, "assumption", "expand", "ints", "--path", "src/**", "--justification", "everything");
    assertThat(JSON.readTree(outside.out()).at("/error/code").asText()).isEqualTo("EXPANSION_OUTSIDE_PHASE");
    CliRunner.Outcome expanded = cli(repo, policy, "assumption", "expand", "ints", "--path", "src/main/java/Util.java",
        "--justification", "the widening helper");
    assertThat(expanded.exitCode()).as(expanded.err() + expanded.out()).isZero();

    JsonNode shown = JSON.readTree(cli(repo, policy, "assumption", "show", "ints").out());
    assertThat(shown.get("status").asText()).isEqualTo("INVALIDATED");
    assertThat(shown.at("/expansions/0/justification").asText()).isEqualTo("the widening helper");
    assertThat(shown.get("confidence").asDouble()).isEqualTo(0.6);
    assertThat(CliRunner.run(ENVIRONMENT, "", "ledger", "verify", "--repo", repo.toString()).exitCode()).isZero();
  }

  /** A repository with a contract and a one-phase plan over {@code src/main/**}, saved through the Java API. */
  private Path repositoryWithAPlan(String name, Path policy) throws Exception {
    Path repo = Files.createDirectories(tmp.resolve(name));
    Process git = new ProcessBuilder("git", "init", "-q", repo.toString()).inheritIO().start();
    assertThat(git.waitFor()).isZero();
    write(repo, "src/main/java/Calc.java", "class Calc { static int add(int a, int b) { return a + b; } }\n");
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.load(policy, repo)).hostEnvironment(ENVIRONMENT).build();
        SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      WorkPlans plans = WorkPlans.builder(kernel, ledger, repo).build();
      plans.setContract("{\"version\": 1, \"writeScopes\": [\"src/**\"]}");
      plans.save(PLAN);
    }
    return repo;
  }

  private static final String PLAN = "{\"version\": 1, \"id\": \"calc\", \"phases\": [{\"id\": \"impl\", \"goal\": \"g\","
      + " \"writeScopes\": [\"src/main/**\"], \"acceptance\": [\"grep -q add src/main/java/Calc.java\"]}]}";

  @Test
  void anInvalidationWithCategoriesFeedsTheEnabledPlaybookAndALaterSaveGetsItsHint() throws Exception {
    BWRAP.backend();
    Path home = Files.createDirectories(tmp.resolve("home"));
    Map<String, String> environment = Map.of("PATH", "/usr/bin:/bin", "HOME", home.toString());
    Path policy = write(tmp, "etc/policy.json", """
        {"version": 1, "network": "none", "projectWrites": "scoped", "writeScopes": ["src/**"],
         "executables": {"grep": {"name": "grep", "exact": [["-q", "add", "src/main/java/Calc.java"]]}}}
        """);
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(CliRunner.run(environment, "", "playbook", "enable").exitCode()).isZero();
    Path first = repositoryWithAPlan("first", policy);
    Path ints = write(tmp, "ints.json", "{\"version\": 1, \"id\": \"ints\", \"statement\": \"sums fit in an int\", \"confidence\": 0.6,"
        + " \"links\": {\"files\": [\"src/main/java/Calc.java\"]}}");
    List<String> repoArgs = List.of("--repo", first.toString(), "--policy", policy.toString(), "--json");
    assertThat(CliRunner.run(environment, "", concat(List.of("assumption", "record", ints.toString()), repoArgs)).exitCode()).isZero();

    CliRunner.Outcome freeText = CliRunner.run(environment, "", concat(List.of("assumption", "invalidate", "ints", "--root-cause", "overflow",
        "--category", "src/main/java/Calc.java", "--assumption-kind", "api-behaviour"), repoArgs));
    assertThat(JSON.readTree(freeText.out()).at("/error/code").asText()).as(freeText.out()).isEqualTo("PLAYBOOK_ENTRY_INVALID");
    assertThat(JSON.readTree(CliRunner.run(environment, "", concat(List.of("assumption", "show", "ints"), repoArgs)).out()).get("status").asText())
        .as("a refused category records nothing").isEqualTo("OPEN");
    CliRunner.Outcome alone = CliRunner.run(environment, "", concat(List.of("assumption", "invalidate", "ints", "--root-cause", "overflow",
        "--category", "misread-api"), repoArgs));
    assertThat(alone.exitCode()).isEqualTo(ExitCodes.USAGE);

    CliRunner.Outcome invalidated = CliRunner.run(environment, "", concat(List.of("assumption", "invalidate", "ints", "--root-cause",
        "sums overflow in Calc", "--category", "misread-api", "--assumption-kind", "api-behaviour"), repoArgs));
    assertThat(invalidated.exitCode()).as(invalidated.err() + invalidated.out()).isZero();
    assertThat(JSON.readTree(invalidated.out()).get("playbookRecorded").asBoolean()).isTrue();
    byte[] database = Files.readAllBytes(home.resolve(".capability/playbook.db"));
    assertThat(new String(database, java.nio.charset.StandardCharsets.ISO_8859_1)).contains("misread-api")
        .doesNotContain("Calc").doesNotContain("sums overflow");

    Path second = Files.createDirectories(tmp.resolve("second"));
    assertThat(new ProcessBuilder("git", "init", "-q", second.toString()).start().waitFor()).isZero();
    write(second, "src/main/java/Other.java", "class Other {}\n");
    Path contract = write(tmp, "contract.json", "{\"version\": 1, \"writeScopes\": [\"src/**\"]}");
    Path plan = write(tmp, "plan.json", PLAN);
    List<String> secondArgs = List.of("--repo", second.toString(), "--policy", policy.toString(), "--json");
    CliRunner.Outcome contractSet = CliRunner.run(environment, "", concat(List.of("contract", "set", contract.toString()), secondArgs));
    assertThat(contractSet.exitCode()).as(contractSet.err() + contractSet.out()).isZero();
    CliRunner.Outcome saved = CliRunner.run(environment, "", concat(List.of("work-plan", "save", plan.toString()), secondArgs));
    assertThat(saved.exitCode()).as(saved.err() + saved.out()).isZero();
    JsonNode hints = JSON.readTree(saved.out()).get("playbookHints");
    assertThat(hints).hasSize(1);
    assertThat(hints.get(0).get("phase").asText()).isEqualTo("impl");
    assertThat(hints.get(0).get("message").asText()).contains("misread-api").contains("api-behaviour");
  }

  private static String[] concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return all.toArray(String[]::new);
  }
}
