package dev.capability.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.workflow.Assurance;
import dev.capability.workflow.EvidenceCategory;
import dev.capability.workflow.ProjectContract;
import dev.capability.workflow.VerificationKind;
import dev.capability.workflow.WorkPlan;
import dev.capability.workflow.WorkflowException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Contracts and plans are read strictly; each refusal is coded and names the JSON pointer of what is wrong. */
class DocumentReadingTest {
  private static final String PHASE = "{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"mvn test\"]}";

  @Test
  void readsEveryMemberOfAContract() {
    ProjectContract contract = ContractJson.read("{\"version\": 1, \"writeScopes\": [\"src/**\"], \"protectedPaths\": [\"src/keys\"],"
        + " \"executables\": [\"mvn\"], \"network\": \"none\", \"evidence\": {\"typeCheck\": [\"tsc --noEmit\"]},"
        + " \"critic\": {\"command\": \"review\", \"blocking\": true}, \"assurance\": \"high\"}");

    assertThat(contract.writeScopes()).containsExactly("src/**");
    assertThat(contract.protectedPaths()).containsExactly("src/keys");
    assertThat(contract.executables()).contains(Set.of("mvn"));
    assertThat(contract.network()).contains(NetworkMode.NONE);
    assertThat(contract.evidence()).containsEntry(EvidenceCategory.TYPE_CHECK, List.of("tsc --noEmit"));
    assertThat(contract.critic().orElseThrow().blocking()).isTrue();
    assertThat(contract.assurance()).isEqualTo(Assurance.HIGH);
    assertThat(ContractJson.read(JsonDocuments.MAPPER.valueToTree(ContractJson.toMap(contract)))).isEqualTo(contract);
  }

  @Test
  void aContractMayChooseFilteredNetworkAndKeepsItInItsNormalForm() {
    ProjectContract contract = ContractJson.read("{\"version\": 1, \"writeScopes\": [\"src/**\"], \"network\": \"filtered\"}");

    assertThat(contract.network()).contains(NetworkMode.FILTERED);
    assertThat(ContractJson.toMap(contract)).containsEntry("network", "filtered");
    assertThat(ContractJson.read(JsonDocuments.MAPPER.valueToTree(ContractJson.toMap(contract)))).isEqualTo(contract);
  }

  @Test
  void readsAPlanWithItsDefaultsAndWritesItsNormalForm() {
    WorkPlan plan = PlanJson.read("{\"version\": 1, \"id\": \"p\", \"phases\": [" + PHASE + "]}");

    assertThat(plan.title()).isEmpty();
    assertThat(plan.phases().get(0).verificationKind()).isEqualTo(VerificationKind.CODE);
    assertThat(plan.phases().get(0).fullSuite()).isEqualTo(Optional.empty());
    assertThat(PlanJson.toMap(plan).toString()).isEqualTo("{version=1, id=p, title=, phases=[{id=a, goal=g, writeScopes=[src/**],"
        + " deliverables=[], verificationKind=code, acceptance=[mvn test], selectiveTests=[], dependsOn=[]}]}");
    assertThat(PlanJson.read(JsonDocuments.MAPPER.valueToTree(PlanJson.toMap(plan)))).isEqualTo(plan);
    assertThat(PlanJson.hash(plan)).startsWith("sha256:").hasSize(71);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"version\": 1, \"id\": \"p\", \"phases\": [" + PHASE + ", {\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"x\"], \"acceptance\": [\"y\"]}]} | /phases/1/id",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"y\"], \"dependsOn\": [\"b\"]}]} | /phases/0/dependsOn/0",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\", \"../x\"], \"acceptance\": [\"y\"]}]} | /phases/0/writeScopes/1",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"y\", 3]}]} | /phases/0/acceptance/1",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"y\"], \"fullSuite\": null}]} | /phases/0/fullSuite",
      "{\"version\": 1, \"id\": \"p\", \"phases\": [{\"id\": \"a\", \"goal\": \"g\", \"writeScopes\": [\"src/**\"], \"acceptance\": [\"y\"], \"a/b\": 1}]} | /phases/0/a~1b",
      "{\"version\": 1.0, \"id\": \"p\", \"phases\": [" + PHASE + "]} | /version",
  })
  void aPlanRefusalNamesThePointer(String json, String pointer) {
    assertThatThrownBy(() -> PlanJson.read(json))
        .isInstanceOfSatisfying(WorkflowException.class, e -> {
          assertThat(e.code()).isEqualTo("WORK_PLAN_INVALID");
          assertThat(e.getMessage()).contains("at " + pointer + ":");
        });
  }

  @Test
  void syntaxErrorsNameTheLineAndColumnAndDuplicateKeysAreRefused() {
    assertThatThrownBy(() -> PlanJson.read("{\"version\": 1,\n \"id\": }"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.getMessage()).contains("line 2, column"));
    assertThatThrownBy(() -> ContractJson.read("{\"version\": 1, \"version\": 1, \"writeScopes\": [\"a\"]}"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo("CONTRACT_INVALID"));
    assertThatThrownBy(() -> ContractJson.read("{\"version\": 1, \"writeScopes\": [\"a\"]} {}"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo("CONTRACT_INVALID"));
  }
}
