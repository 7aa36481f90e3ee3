package dev.capability.workflow;

import static dev.capability.workflow.AssumptionFixtures.PLAN;
import static dev.capability.workflow.AssumptionFixtures.assumption;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recording, invalidating and expanding on a real repository and its real SQLite ledger (nothing
 * is launched here): refusals carry their code and store nothing; the radius follows the links,
 * stays inside the phase, and reports its bounds.
 */
class AssumptionRecordingTest {
  @TempDir Path tmp;
  private Path repository;
  private SqliteLedger ledger;
  private Assumptions assumptions;

  @BeforeEach
  void setUp() throws Exception {
    repository = JavaProject.create(tmp.resolve("repo"), tmp);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);
    JavaProject.write(repository, "src/main/java/Util.java", "class Util {}\n");
    ledger = SqliteLedger.forRepository(repository, LedgerOptions.builder().checkpointMaxDelay(null).build());
    WorkPlans plans = WorkPlans.builder(Fixtures.decidingKernel(), ledger, repository).build();
    plans.setContract(Fixtures.CONTRACT);
    plans.save(PLAN);
    assumptions = Assumptions.builder(Fixtures.decidingKernel(), ledger, repository).build();
  }

  @AfterEach
  void tearDown() {
    ledger.close();
  }

  private static String code(Runnable action) {
    try {
      action.run();
    } catch (WorkflowException e) {
      return e.code();
    }
    throw new AssertionError("expected a WorkflowException");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.5", "-0.1", "NaN", "Infinity", "-Infinity", "1e400", "\"0.5\"", "null", "true"})
  void aConfidenceOutsideZeroToOneIsRefusedNeverClampedAndNothingIsStored(String confidence) {
    assertThat(code(() -> assumptions.record(assumption("a1", confidence, "[]", "[]"))))
        .isEqualTo(AssumptionCodes.ASSUMPTION_CONFIDENCE_INVALID);
    assertThat(ledger.assumptions()).isEmpty();
  }

  @Test
  void aConfidenceFromZeroToOneIsStoredAsWritten() {
    assertThat(assumptions.record(assumption("a0", "0", "[]", "[]")).assumption().confidence()).isZero();
    assertThat(assumptions.record(assumption("a1", "1", "[]", "[]")).assumption().confidence()).isEqualTo(1.0);
    assertThat(assumptions.record(assumption("a2", "0.25", "[]", "[]")).assumption().confidence()).isEqualTo(0.25);
    assertThat(assumptions.show("a2").assumption().confidence()).isEqualTo(0.25);
    assertThat(assumptions.show("a2").assumption().phaseId()).isEqualTo("impl");
  }

  @Test
  void linksOutsideTheRepositoryToUnknownAssumptionsOrPhasesAndCyclesAreRefusedAndNothingIsStored() {
    assertThat(code(() -> assumptions.record(assumption("a1", "[\"/etc/passwd\"]")))).isEqualTo(AssumptionCodes.ASSUMPTION_LINK_OUTSIDE_REPOSITORY);
    assertThat(code(() -> assumptions.record(assumption("a1", "[\"../other/secret\"]")))).isEqualTo(AssumptionCodes.ASSUMPTION_LINK_OUTSIDE_REPOSITORY);
    assertThat(code(() -> assumptions.record(assumption("a1", "[\"src/../../x\"]")))).isEqualTo(AssumptionCodes.ASSUMPTION_LINK_OUTSIDE_REPOSITORY);
    assertThat(code(() -> assumptions.record(assumption("a1", "0.5", "[]", "[\"ghost\"]")))).isEqualTo(AssumptionCodes.ASSUMPTION_LINK_UNKNOWN);
    assertThat(code(() -> assumptions.record(assumption("a1", "0.5", "[]", "[\"a1\"]")))).isEqualTo(AssumptionCodes.ASSUMPTION_LINK_CYCLE);
    assertThat(code(() -> assumptions.record("{\"version\": 1, \"id\": \"a1\", \"statement\": \"s\", \"confidence\": 0.5,"
        + " \"links\": {\"phases\": [\"nope\"]}}"))).isEqualTo(AssumptionCodes.ASSUMPTION_LINK_UNKNOWN);
    assertThat(code(() -> assumptions.record("{\"version\": 1, \"id\": \"a1\", \"statement\": \"s\", \"confidence\": 0.5, \"extra\": 1}")))
        .isEqualTo(AssumptionCodes.ASSUMPTION_INVALID);
    assertThat(ledger.assumptions()).isEmpty();
    assumptions.record(assumption("a1", "[]"));
    assertThat(code(() -> assumptions.record(assumption("a1", "[]")))).isEqualTo(AssumptionCodes.ASSUMPTION_EXISTS);
    assertThat(ledger.assumptions()).hasSize(1);
  }

  @Test
  void theRadiusFollowsDependentAssumptionsAndPhasesAndStaysInsideThePhase() {
    // "base" is depended on by "uses", which names Util; "uses" also makes phase "tests" depend on it.
    assumptions.record(assumption("uses", "0.9", "[\"src/main/java/Util.java\"]", "[]"));
    assumptions.record("{\"version\": 1, \"id\": \"base\", \"statement\": \"ints suffice\", \"confidence\": 0.6,"
        + " \"links\": {\"files\": [\"src/main/java/Calc.java\"], \"assumptions\": [\"uses\"], \"phases\": [\"tests\"]}}");
    Invalidation inv = assumptions.invalidate("base", "sums overflow int");
    assertThat(inv.radius().files()).containsExactly("src/main/java/Calc.java", "src/main/java/Util.java");
    assertThat(inv.radius().reachedAssumptions()).containsExactly("base", "uses");
    assertThat(inv.radius().reachedPhases()).containsExactly("tests");
    assertThat(inv.radius().excluded()).containsOnlyKeys("src/test/java/CalcTest.java");
    assertThat(inv.radius().boundReached()).isFalse();
    assertThat(inv.phaseId()).isEqualTo("impl");
    AssumptionState shown = assumptions.show("base");
    assertThat(shown.status()).isEqualTo("INVALIDATED");
    assertThat(shown.invalidation().orElseThrow().radius()).isEqualTo(inv.radius());
  }

  @Test
  void reachingABoundIsReportedNeverSilent() {
    assumptions.record(assumption("uses", "0.9", "[\"src/main/java/Util.java\"]", "[]"));
    assumptions.record(assumption("base", "0.6", "[\"src/main/java/Calc.java\"]", "[\"uses\"]"));
    Assumptions shallow = Assumptions.builder(Fixtures.decidingKernel(), ledger, repository).bounds(new RadiusBounds(0, 200)).build();
    Invalidation inv = shallow.invalidate("base", "sums overflow int");
    assertThat(inv.radius().files()).containsExactly("src/main/java/Calc.java");
    assertThat(inv.radius().depthBoundReached()).isTrue();
    assertThat(ledger.corrections("base").get(0).record()).isInstanceOfSatisfying(dev.capability.kernel.api.store.InvalidationRecord.class,
        r -> assertThat(r.details()).containsEntry("depthBoundReached", true));

    assumptions.record(assumption("glob", "[\"src/main/java/*.java\"]"));
    Invalidation few = Assumptions.builder(Fixtures.decidingKernel(), ledger, repository).bounds(new RadiusBounds(4, 1)).build()
        .invalidate("glob", "wrong");
    assertThat(few.radius().files()).containsExactly("src/main/java/Calc.java");
    assertThat(few.radius().fileBoundReached()).isTrue();
  }

  @Test
  void emptySeedsGiveAnEmptyRadiusAndAReadOnlyCorrectionLayer() {
    assumptions.record(assumption("none", "[]"));
    Invalidation inv = assumptions.invalidate("none", "nothing depended on it");
    assertThat(inv.radius().files()).isEmpty();
    AuthorityLayer layer = assumptions.correctionLayer("none");
    assertThat(layer.kind()).isEqualTo(AuthorityLayer.Kind.CORRECTION);
    assertThat(layer.projectWrites()).contains(ProjectWriteMode.READ_ONLY);
  }

  @Test
  void anExpansionNeedsAJustificationAndStaysInsideThePhase() {
    assumptions.record(assumption("a1", "[\"src/main/java/Calc.java\"]"));
    assertThat(code(() -> assumptions.expandCorrectionScope("a1", List.of("src/main/java/Util.java"), "why")))
        .as("not invalidated yet").isEqualTo(AssumptionCodes.ASSUMPTION_NOT_INVALIDATED);
    assumptions.invalidate("a1", "wrong type");
    int before = ledger.corrections("a1").size();
    for (String blank : new String[] {"", " ", "\t\n ", null}) {
      assertThat(code(() -> assumptions.expandCorrectionScope("a1", List.of("src/main/java/Util.java"), blank)))
          .isEqualTo(AssumptionCodes.JUSTIFICATION_REQUIRED);
    }
    assertThat(code(() -> assumptions.expandCorrectionScope("a1", List.of("src/test/**"), "the tests need it")))
        .isEqualTo(AssumptionCodes.EXPANSION_OUTSIDE_PHASE);
    assertThat(code(() -> assumptions.expandCorrectionScope("a1", List.of("**"), "everything")))
        .isEqualTo(AssumptionCodes.EXPANSION_OUTSIDE_PHASE);
    assertThat(code(() -> assumptions.expandCorrectionScope("a1", List.of("../x"), "outside"))).isEqualTo(AssumptionCodes.EXPANSION_INVALID);
    assertThat(code(() -> assumptions.expandCorrectionScope("a1", List.of(), "none"))).isEqualTo(AssumptionCodes.EXPANSION_INVALID);
    assertThat(ledger.corrections("a1")).hasSize(before);

    ScopeExpansion expansion = assumptions.expandCorrectionScope("a1", List.of("src/main/java/Util.java"), "Util holds the widening helper");
    assertThat(assumptions.show("a1").expansions()).containsExactly(expansion);
    assertThat(assumptions.correctionLayer("a1").writeScopes()).contains(List.of("src/main/java/Calc.java", "src/main/java/Util.java"));
  }

  @Test
  void aClosedCorrectionTakesNoFurtherStep() {
    assumptions.record(assumption("a1", "[\"src/main/java/Calc.java\"]"));
    assertThat(code(() -> assumptions.invalidate("a1", "  "))).isEqualTo(AssumptionCodes.ROOT_CAUSE_REQUIRED);
    assumptions.invalidate("a1", "wrong");
    assertThat(code(() -> assumptions.invalidate("a1", "again"))).isEqualTo(AssumptionCodes.ASSUMPTION_ALREADY_INVALIDATED);
    assertThat(code(() -> assumptions.resolve("a1", "done"))).isEqualTo(AssumptionCodes.CORRECTION_NOT_VERIFIED);
    assertThat(code(() -> assumptions.abandon("a1", " "))).isEqualTo(AssumptionCodes.JUSTIFICATION_REQUIRED);
    CorrectionOutcome outcome = assumptions.abandon("a1", "the feature was dropped");
    assertThat(outcome.resolved()).isFalse();
    assertThat(outcome.verificationSequence()).isEqualTo(Optional.empty());
    assertThat(assumptions.show("a1").status()).isEqualTo("ABANDONED");
    assertThat(code(() -> assumptions.expandCorrectionScope("a1", List.of("src/main/java/Util.java"), "late")))
        .isEqualTo(AssumptionCodes.CORRECTION_CLOSED);
    assertThat(code(() -> assumptions.show("ghost"))).isEqualTo(AssumptionCodes.ASSUMPTION_UNKNOWN);
  }

  @Test
  void apologyLanguageGetsAdviceAndChangesNoAuthorityAndRecordsNothing() throws Exception {
    assumptions.record(assumption("a1", "[\"src/main/java/Calc.java\"]"));
    assumptions.record(assumption("a2", "[\"src/main/java/Util.java\"]"));
    assumptions.invalidate("a1", "wrong");
    AuthorityLayer layerBefore = assumptions.correctionLayer("a1");
    long recordsBefore = ledger.reader().verify().records();

    assertThat(assumptions.adviceFor("I apologize, I was wrong about the int type.")).hasValueSatisfying(advice ->
        assertThat(advice).contains("I apologize").contains("[a2]").contains("invalidate"));
    assertThat(assumptions.adviceFor("My mistake \u2014 that test was flaky")).isPresent();
    assertThat(assumptions.adviceFor("All checks pass; the phase is done.")).isEmpty();

    assertThat(ledger.reader().verify().records()).isEqualTo(recordsBefore);
    assertThat(assumptions.correctionLayer("a1")).isEqualTo(layerBefore);
    assertThat(assumptions.show("a2").status()).isEqualTo("OPEN");
    assertThat(Files.exists(repository.resolve(".capability/playbook.db"))).isFalse();
  }
}
