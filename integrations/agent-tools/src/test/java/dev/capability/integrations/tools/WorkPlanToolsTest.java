package dev.capability.integrations.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.tck.BackendGate;
import dev.capability.workflow.WorkPlans;
import dev.capability.workflow.WorkflowCodes;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** save_plan and verify_phase on the repository's real ledger, with the acceptance command run under bwrap. */
class WorkPlanToolsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PLAN = "{\"version\": 1, \"id\": \"readme\", \"title\": \"read the readme\", \"phases\": ["
      + "{\"id\": \"read\", \"goal\": \"read it\", \"writeScopes\": [\"docs/**\"], \"acceptance\": [\"cat README.md\"]}]}";
  private static BackendGate bwrap;

  @TempDir Path base;
  private TestRepository repo;
  private AgentTools tools;

  @BeforeAll
  static void open() {
    bwrap = TestRepository.bwrap();
  }

  @AfterAll
  static void close() {
    bwrap.close();
  }

  @BeforeEach
  void setUp() throws IOException {
    repo = TestRepository.create(base);
    WorkPlans plans = WorkPlans.builder(repo.planKernel(bwrap), repo.ledger, repo.repository).build();
    // The contract narrows the operator's cat and echo to cat.
    plans.setContract("{\"version\": 1, \"writeScopes\": [\"docs/**\"], \"executables\": [\"cat\"]}");
    tools = AgentTools.builder(repo.kernel(bwrap), repo.repository).workPlans(plans).build();
  }

  private JsonNode call(String tool, String arguments) throws IOException {
    return JSON.readTree(tools.named(tool).orElseThrow().execute(arguments));
  }

  @Test
  void workPlansAddTheSaveAndVerifyTools() {
    assertThat(tools.all()).extracting(AgentTool::name)
        .containsExactly(AgentTools.RUN_COMMAND, AgentTools.CHECK_COMMAND, AgentTools.SAVE_PLAN, AgentTools.VERIFY_PHASE);
  }

  @Test
  void aSavedPlanIsVerifiedByRunningItsAcceptanceCommandInTheSandbox() throws IOException {
    JsonNode saved = call("save_plan", "{\"plan\": " + PLAN + "}");
    assertThat(saved.get("workPlanId").asText()).as(saved.toString()).isEqualTo("readme");
    assertThat(saved.get("revision").asInt()).isEqualTo(1);

    JsonNode verification = call("verify_phase", "{}");
    assertThat(verification.get("passed").asBoolean()).as(verification.toString()).isTrue();
    assertThat(verification.at("/runs/0/command").asText()).isEqualTo("cat README.md");
  }

  @Test
  void aPlanThatIsNotAnObjectOrBreaksTheFormatIsAnErrorAndNoRevisionIsRecorded() throws IOException {
    assertThat(call("save_plan", "{\"plan\": " + JSON.writeValueAsString(PLAN) + "}").at("/error/code").asText())
        .isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
    assertThat(call("save_plan", "{\"plan\": {\"version\": 1}}").at("/error/code").asText()).isEqualTo(WorkflowCodes.WORK_PLAN_INVALID);
    assertThat(call("verify_phase", "{\"fullSuite\": \"yes\"}").at("/error/message").asText()).contains("'fullSuite' must be a boolean");
    assertThat(repo.ledger.workPlanRevisions()).isEmpty();
  }

  @Test
  void commandsAreHeldToTheContractAsWellAsTheOperatorPolicy() throws IOException {
    JsonNode echo = call("run_command", "{\"argv\": [\"echo\", \"hi\"]}");
    assertThat(echo.get("status").asText()).as(echo.toString()).isEqualTo("DENIED");
    assertThat(echo.get("layer").asText()).isEqualTo("project-contract");

    call("save_plan", "{\"plan\": " + PLAN + "}");
    JsonNode cat = call("check_command", "{\"argv\": [\"cat\", \"a.txt\"]}");
    assertThat(cat.get("status").asText()).as(cat.toString()).isEqualTo("ALLOWED");
    assertThat(call("check_command", "{\"argv\": [\"echo\", \"hi\"]}").get("layer").asText()).isEqualTo("project-contract");
  }
}
