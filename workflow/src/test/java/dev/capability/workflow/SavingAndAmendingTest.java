package dev.capability.workflow;

import static dev.capability.workflow.Fixtures.CONTRACT;
import static dev.capability.workflow.Fixtures.IMPL;
import static dev.capability.workflow.Fixtures.TESTS;
import static dev.capability.workflow.Fixtures.TWO_PHASES;
import static dev.capability.workflow.Fixtures.contract;
import static dev.capability.workflow.Fixtures.phase;
import static dev.capability.workflow.Fixtures.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.kernel.core.CommandKernel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saving and amending a plan on a real Git repository: everything is validated before anything is
 * stored, refusals carry the parser's offset, the kernel's layer and rule or the exact
 * counterexample, and the warnings name what is weak.
 */
class SavingAndAmendingTest {
  @TempDir Path tmp;
  private Path repository;
  private CommandKernel kernel;
  private InMemoryWorkPlanStore store;
  private WorkPlans plans;

  @BeforeEach
  void setUp() throws Exception {
    repository = JavaProject.create(tmp.resolve("repo"), tmp);
    kernel = Fixtures.decidingKernel();
    store = new InMemoryWorkPlanStore();
    plans = WorkPlans.builder(kernel, store, repository).build();
  }

  @AfterEach
  void tearDown() {
    if (kernel != null) {
      kernel.close();
    }
  }

  private int recordsAfterContract() {
    plans.setContract(CONTRACT);
    return store.all.size();
  }

  @Test
  void aShellOperatorInAnAcceptanceCommandIsRefusedWithItsOffsetAndNothingIsStored() {
    int before = recordsAfterContract();
    String piped = plan(phase("impl", "[\"src/**\"]", "[\"javac -d target/classes src/main/java/Calc.java | cat\"]", ""));

    assertThatThrownBy(() -> plans.save(piped))
        .isInstanceOfSatisfying(WorkflowException.class, e -> {
          assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_COMMAND_SHELL_SYNTAX);
          assertThat(e.getMessage()).contains("/phases/0/acceptance/0").contains("SHELL_SYNTAX").contains("pipe at offset 48");
        });
    assertThat(store.all).hasSize(before);
    assertThat(plans.current()).isEmpty();
  }

  @Test
  void aCommandNoLayerAllowsIsRefusedNamingTheLayerAndRule() {
    int before = recordsAfterContract();
    String unlisted = plan(phase("impl", "[\"src/**\"]", "[\"javac -d elsewhere src/main/java/Calc.java\"]", ""));

    assertThatThrownBy(() -> plans.save(unlisted))
        .isInstanceOfSatisfying(WorkflowException.class, e -> {
          assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_COMMAND_NOT_ALLOWED);
          assertThat(e.getMessage()).contains("/phases/0/acceptance/0").contains("operator layer").contains("executables.javac");
        });
    assertThat(store.all).hasSize(before);
  }

  @Test
  void aNoOpAcceptanceCommandIsRefusedEvenWhenThePolicyAllowsIt() {
    int before = recordsAfterContract();

    assertThatThrownBy(() -> plans.save(plan(phase("impl", "[\"src/**\"]", "[\"true\"]", ""))))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_COMMAND_NO_OP));
    assertThat(store.all).hasSize(before);
  }

  @Test
  void aPhaseWiderThanTheContractIsRefusedWithTheCounterexample() {
    int before = recordsAfterContract();

    assertThatThrownBy(() -> plans.save(plan(phase("docs", "[\"docs/**\"]", "[\"cat README.md\"]", ", \"verificationKind\": \"non-code\""))))
        .isInstanceOfSatisfying(WorkflowException.class, e -> {
          assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_WIDENS_CONTRACT);
          assertThat(e.getMessage()).contains("/phases/0/writeScopes").contains("\"docs\"").contains("[src/**, target/**]");
        });
    assertThat(store.all).hasSize(before);
  }

  @Test
  void aWideningAmendmentIsRefusedWithTheCounterexampleAndTheRevisionStays() {
    plans.setContract(CONTRACT);
    WorkPlanRevision saved = plans.save(TWO_PHASES);
    int before = store.all.size();

    assertThatThrownBy(() -> plans.amend("[{\"op\": \"add\", \"path\": \"/phases/1/writeScopes/-\", \"value\": \"docs/*.md\"}]"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> {
          assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_WIDENS_CONTRACT);
          assertThat(e.getMessage()).contains("/phases/1/writeScopes").contains("\"docs/*.md\"").contains("allows \"docs/");
        });
    assertThat(store.all).hasSize(before);
    assertThat(plans.current().orElseThrow().revisionHash()).isEqualTo(saved.revisionHash());
  }

  @Test
  void anAmendmentIsAppliedAsAJsonPatchAndKeepsEveryRevision() {
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);

    WorkPlanRevision amended = plans.amend("[{\"op\": \"replace\", \"path\": \"/phases/1/goal\", \"value\": \"prove add\"}]");

    assertThat(amended.revision()).isEqualTo(2);
    assertThat(amended.plan().phases().get(1).goal()).isEqualTo("prove add");
    List<Stored<WorkPlanRecord>> revisions = store.workPlanRevisions();
    assertThat(revisions).extracting(s -> s.record().revision()).containsExactly(1, 2);
    assertThat(revisions.get(1).record().document().get("patch")).isInstanceOf(List.class);
  }

  @Test
  void aPatchThatCannotBeAppliedIsACodedRefusal() {
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);

    assertThatThrownBy(() -> plans.amend("[{\"op\": \"remove\", \"path\": \"/phases/7\"}]"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_PATCH_INVALID));
    assertThatThrownBy(() -> plans.amend("{\"op\": \"remove\"}"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_PATCH_INVALID));
    assertThatThrownBy(() -> plans.amend("[{\"op\": \"replace\", \"path\": \"/phases/0/verificationKind\", \"value\": \"prose\"}]"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> {
          assertThat(e.code()).isEqualTo(WorkflowCodes.WORK_PLAN_INVALID);
          assertThat(e.getMessage()).contains("/phases/0/verificationKind");
        });
  }

  @Test
  void aCompletedPhaseCannotBeChangedOrDeleted() {
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    // Completion itself is attested by the sandbox tests; here the record is what the amendment reads.
    store.recordPhase(new PhaseRecord("calc", 1, "impl", "COMPLETED", List.of(), java.util.Map.of()));

    assertThatThrownBy(() -> plans.amend("[{\"op\": \"replace\", \"path\": \"/phases/0/goal\", \"value\": \"other\"}]"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_CHANGES_COMPLETED_PHASE));
    assertThatThrownBy(() -> plans.amend("[{\"op\": \"remove\", \"path\": \"/phases/0\"}]"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_CHANGES_COMPLETED_PHASE));
    assertThat(plans.amend("[{\"op\": \"replace\", \"path\": \"/phases/1/goal\", \"value\": \"other\"}]").revision()).isEqualTo(2);
  }

  @Test
  void aTestlessCodePhaseAndReusedCommandsAreWarnedAbout() {
    plans.setContract(CONTRACT);
    String echo = phase("impl", "[\"src/main/**\", \"target/**\"]", "[\"echo done\"]", "");
    String again = phase("other", "[\"src/test/**\"]", "[\"echo done\"]", "");

    WorkPlanRevision saved = plans.save(plan(echo, again));

    assertThat(saved.warnings()).extracting(PlanWarning::code, PlanWarning::pointer).contains(
        org.assertj.core.groups.Tuple.tuple(PlanWarning.NO_RECOGNISED_CHECK, "/phases/0/acceptance"),
        org.assertj.core.groups.Tuple.tuple(PlanWarning.WEAK_EVIDENCE, "/phases/0/acceptance/0"),
        org.assertj.core.groups.Tuple.tuple(PlanWarning.REUSED_COMMAND, "/phases/1/acceptance/0"),
        org.assertj.core.groups.Tuple.tuple(PlanWarning.RECOMMEND_BLOCKING_CRITIC, ""));
    assertThat(plans.current().orElseThrow().warnings()).isEqualTo(saved.warnings());
  }

  @Test
  void aPhaseThatRunsRealChecksAndANonCodePhaseGetNoWarnings() {
    plans.setContract(CONTRACT);
    String notes = phase("notes", "[\"src/docs/**\"]", "[\"grep -q calc README.md\"]", ", \"verificationKind\": \"non-code\"");

    assertThat(plans.save(plan(IMPL, TESTS, notes)).warnings()).isEmpty();
  }

  @Test
  void theProjectsOwnCheckNamedInTheContractIsRecognised() {
    plans.setContract("{\"version\": 1, \"writeScopes\": [\"src/**\", \"target/**\"], \"evidence\": {\"test\": [\"grep -q add src/main/java/Calc.java\"]}}");

    WorkPlanRevision saved = plans.save(plan(phase("impl", "[\"src/**\"]", "[\"grep -q add src/main/java/Calc.java\"]", "")));

    assertThat(saved.warnings()).extracting(PlanWarning::code).doesNotContain(PlanWarning.NO_RECOGNISED_CHECK);
  }

  @Test
  void aBlockingCriticSilencesTheRecommendationButNotTheWeakEvidence() {
    plans.setContract(contract(Fixtures.BLOCKING_GREP_CRITIC));

    WorkPlanRevision saved = plans.save(plan(phase("impl", "[\"src/**\"]", "[\"echo done\"]", "")));

    assertThat(saved.warnings()).extracting(PlanWarning::code)
        .contains(PlanWarning.WEAK_EVIDENCE)
        .doesNotContain(PlanWarning.RECOMMEND_BLOCKING_CRITIC);
  }

  @Test
  void highAssuranceRefusesAnAcceptanceCommandThatIsNotAnExactOperatorCommand() {
    plans.setContract("{\"version\": 1, \"writeScopes\": [\"src/**\", \"target/**\"], \"assurance\": \"high\"" + Fixtures.BLOCKING_GREP_CRITIC + "}");
    int before = store.all.size();

    assertThatThrownBy(() -> plans.save(plan(phase("impl", "[\"src/**\"]", "[\"grep -q add src/main/java/Calc.java\"]", ""))))
        .isInstanceOfSatisfying(WorkflowException.class, e -> {
          assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_COMMAND_NOT_EXACT);
          assertThat(e.getMessage()).contains("/phases/0/acceptance/0").contains("executables.grep");
        });
    assertThat(store.all).hasSize(before);
    assertThat(plans.save(TWO_PHASES).revision()).isEqualTo(1);
  }

  @Test
  void highAssuranceRefusesAContractWithoutABlockingCritic() {
    plans.setContract("{\"version\": 1, \"writeScopes\": [\"src/**\", \"target/**\"], \"assurance\": \"high\","
        + " \"critic\": {\"command\": \"grep -q workPlanId\", \"blocking\": false}}");

    assertThatThrownBy(() -> plans.save(TWO_PHASES))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.CRITIC_REQUIRED));
  }

  @Test
  void aContractWiderThanTheOperatorIsRefusedWithTheCounterexample() {
    assertThatThrownBy(() -> plans.setContract("{\"version\": 1, \"writeScopes\": [\"src/**\", \"lib/**\"]}"))
        .isInstanceOfSatisfying(WorkflowException.class, e -> {
          assertThat(e.code()).isEqualTo(WorkflowCodes.CONTRACT_WIDENS_OPERATOR);
          assertThat(e.getMessage()).contains("\"lib/**\"").contains("allows \"lib\"");
        });
    assertThat(store.all).isEmpty();
    assertThat(plans.contract()).isEmpty();
  }

  @Test
  void aPlanNeedsAContractAndASecondSaveOfTheSamePlanIsRefused() {
    assertThatThrownBy(() -> plans.save(TWO_PHASES))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.CONTRACT_MISSING));
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    assertThatThrownBy(() -> plans.save(TWO_PHASES))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.WORK_PLAN_EXISTS));
  }

  @Test
  void savingActivatesTheFirstPhaseWithTheTreeItStartsFrom() {
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);

    PhaseStatus status = plans.status();
    assertThat(status.active()).contains("impl");
    assertThat(status.completed()).isEmpty();
    List<Stored<PhaseRecord>> records = store.phaseRecords("calc");
    assertThat(records).extracting(s -> s.record().event()).containsExactly("ACTIVATED");
    List<Object> started = List.copyOf(((java.util.Map<?, ?>) records.get(0).record().body().get("manifest")).keySet());
    assertThat(started).contains("README.md", ".gitignore");
  }

  @Test
  void tokenCountersAreNumbersOnlyAndNamedStrictly() {
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    int before = store.all.size();

    assertThatThrownBy(() -> plans.recordTokens(java.util.Map.of("input", -1L)))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.TOKENS_INVALID));
    assertThatThrownBy(() -> plans.recordTokens(java.util.Map.of("the prompt was: fix it", 1L)))
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.TOKENS_INVALID));
    assertThat(store.all).hasSize(before);
    plans.recordTokens(java.util.Map.of("input", 10L));
    assertThat(store.phaseRecords("calc").get(1).record().event()).isEqualTo("TOKENS");
  }

  @Test
  void theActiveLayersAreNoneBeforeAContractThenTheContractThenTheContractAndTheActivePhase() {
    assertThat(plans.activeLayers()).isEmpty();
    assertThat(plans.activePhase()).isEmpty();

    plans.setContract(CONTRACT);
    assertThat(plans.activeLayers()).extracting(layer -> layer.kind())
        .containsExactly(dev.capability.kernel.api.authority.AuthorityLayer.Kind.PROJECT_CONTRACT);

    plans.save(TWO_PHASES);
    assertThat(plans.activePhase()).map(Phase::id).hasValue("impl");
    assertThat(plans.activeLayers()).extracting(layer -> layer.kind())
        .containsExactly(dev.capability.kernel.api.authority.AuthorityLayer.Kind.PROJECT_CONTRACT,
            dev.capability.kernel.api.authority.AuthorityLayer.Kind.PHASE);
    assertThat(plans.activeLayers().get(1).writeScopes()).hasValue(List.of("src/main/**", "target/**"));
  }
}
