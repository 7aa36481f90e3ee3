package dev.capability.workflow;

import static dev.capability.workflow.Fixtures.CONTRACT;
import static dev.capability.workflow.Fixtures.TWO_PHASES;
import static dev.capability.workflow.Fixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.core.CommandKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verifying and completing phases of a real Java project in a real Git repository, with real
 * {@code javac} and {@code java} under real bwrap: evidence is what the kernel ran, a change
 * outside the phase's scope by any means fails the phase, stale evidence and a blocking critic's
 * rejection block completion, and completion records the input tree.
 */
class PhaseVerificationInSandboxTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @TempDir Path tmp;
  private Path repository;
  private InMemoryWorkPlanStore store;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @BeforeEach
  void setUp() throws Exception {
    Files.setAttribute(tmp, "unix:mode", 0755);
    repository = JavaProject.create(tmp.resolve("repo"), tmp);
    store = new InMemoryWorkPlanStore();
  }

  /** Work plans on a kernel on the gate's backend; the kernel is never closed, since closing it closes the gate's backend. */
  private WorkPlans plans() {
    CommandKernel kernel = Fixtures.kernel(BWRAP.backend());
    return WorkPlans.builder(kernel, store, repository).build();
  }

  @Test
  void twoPhasesCompleteOnTheirEvidenceAndCompletionRecordsTheInputTree() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);

    PhaseVerification impl = plans.verify(false, true);

    assertThat(impl.passed()).as(impl.message() + " " + impl.runs()).isTrue();
    assertThat(impl.runs()).extracting(CommandRun::argv).containsExactly(List.of("javac", "-d", "target/classes", "src/main/java/Calc.java"));
    assertThat(repository.resolve("target/classes/Calc.class")).isRegularFile();
    assertThat(impl.changedPaths()).contains("src/main/java/Calc.java", "target/classes/Calc.class");
    PhaseCompletion done = plans.complete();
    assertThat(done.nextPhaseId()).contains("tests");
    assertThat(done.inputTreeHash()).isEqualTo(impl.treeHash()).matches("[0-9a-f]{40}");

    JavaProject.write(repository, "src/test/java/CalcTest.java", JavaProject.CALC_TEST);
    PhaseVerification tests = plans.verify(false, true);
    assertThat(tests.passed()).as(tests.message() + " " + tests.runs()).isTrue();
    assertThat(tests.runs()).hasSize(2);
    plans.complete();

    assertThat(plans.status().active()).isEmpty();
    assertThat(plans.status().completed()).containsExactly("impl", "tests");
    List<Stored<ExecutionRecord>> launches = store.of(ExecutionRecord.class);
    assertThat(launches).hasSize(3);
    assertThat(launches).allSatisfy(l -> assertThat(l.record().attestation().get("status")).isEqualTo("COMPLETED"));
    assertThat(store.phaseRecords("calc")).extracting(s -> s.record().event())
        .containsExactly("ACTIVATED", "VERIFIED", "COMPLETED", "ACTIVATED", "VERIFIED", "COMPLETED");
    assertThatThrownBy(plans::complete)
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PHASE_NOT_ACTIVE));
  }

  @Test
  void aFailingTestIsAFailureRecordWithAStableFingerprintAndBlocksCompletion() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.BROKEN_CALC);
    assertThat(plans.verify(false, false).passed()).isTrue();
    plans.complete();
    JavaProject.write(repository, "src/test/java/CalcTest.java", JavaProject.CALC_TEST);

    PhaseVerification first = plans.verify(false, false);
    PhaseVerification second = plans.verify(false, false);

    assertThat(first.passed()).isFalse();
    assertThat(first.failureCode()).contains(WorkflowCodes.COMMAND_FAILED);
    FailureRecord failure = first.runs().get(1).failure().orElseThrow();
    assertThat(failure.exitCode()).contains(1);
    assertThat(failure.excerpt()).contains("add(2, 3) was -1, expected 5");
    assertThat(failure.fingerprint()).isEqualTo(second.runs().get(1).failure().orElseThrow().fingerprint());
    assertThatThrownBy(plans::complete)
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PHASE_NOT_VERIFIED));
  }

  @Test
  void aFileWrittenOutsideThePhaseScopeByAnyMeansFailsVerification() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);
    // Not through the kernel: the agent's own editor writes a test during the implementation phase.
    JavaProject.write(repository, "src/test/java/Sneaky.java", "class Sneaky {}\n");

    PhaseVerification verification = plans.verify(false, false);

    assertThat(verification.passed()).isFalse();
    assertThat(verification.failureCode()).contains(WorkflowCodes.PHASE_SCOPE_VIOLATION);
    assertThat(verification.violations()).extracting(v -> v.path()).contains("src/test/java/Sneaky.java");
    assertThat(verification.violations()).extracting(v -> v.path()).doesNotContain("src/main/java/Calc.java", "target/classes/Calc.class");
    assertThatThrownBy(plans::complete)
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PHASE_NOT_VERIFIED));
  }

  @Test
  void aSecretWrittenDuringThePhaseFailsVerification() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC.replace("public class Calc {",
        "public class Calc {\n  static final String KEY = \"AKIAIOSFODNN7EXAMPLQ\";"));

    PhaseVerification verification = plans.verify(false, false);

    assertThat(verification.failureCode()).contains(WorkflowCodes.SECRET_FOUND);
    assertThat(verification.secrets()).extracting(s -> s.source()).contains("src/main/java/Calc.java");
  }

  @Test
  void staleEvidenceBlocksCompletionUntilThePhaseIsVerifiedAgain() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);
    assertThat(plans.verify(false, false).passed()).isTrue();
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.BROKEN_CALC);

    assertThatThrownBy(plans::complete)
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.EVIDENCE_STALE));
    assertThat(store.phaseRecords("calc")).extracting(s -> s.record().event()).doesNotContain("COMPLETED");

    assertThat(plans.verify(false, false).passed()).isTrue();
    assertThat(plans.complete().phaseId()).isEqualTo("impl");
  }

  @Test
  void aBlockingCriticThatExitsOneBlocksCompletion() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(contract(", \"critic\": {\"command\": \"grep -q no-such-evidence\", \"blocking\": true}"));
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);

    PhaseVerification verification = plans.verify(false, false);

    assertThat(verification.passed()).isFalse();
    assertThat(verification.failureCode()).contains(WorkflowCodes.CRITIC_REJECTED);
    CriticVerdict critic = verification.critic().orElseThrow();
    assertThat(critic.approved()).isFalse();
    assertThat(critic.run().exitCode()).contains(1);
    assertThatThrownBy(plans::complete)
        .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.CRITIC_REJECTED));
  }

  @Test
  void aCriticReadsTheEvidenceSummaryOnStandardInputAndApproves() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(contract(Fixtures.BLOCKING_GREP_CRITIC));
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);

    PhaseVerification verification = plans.verify(false, false);

    assertThat(verification.passed()).as(verification.message()).isTrue();
    assertThat(verification.critic().orElseThrow().approved()).isTrue();
    assertThat(plans.complete().phaseId()).isEqualTo("impl");
  }

  @Test
  void aNonBlockingCriticsRejectionIsRecordedAsAdvice() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(contract(", \"critic\": {\"command\": \"grep -q no-such-evidence\", \"blocking\": false}"));
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);

    PhaseVerification verification = plans.verify(false, false);

    assertThat(verification.passed()).isTrue();
    assertThat(verification.critic().orElseThrow().approved()).isFalse();
    Stored<PhaseRecord> recorded = store.phaseRecords("calc").get(1);
    assertThat(recorded.record().event()).isEqualTo("VERIFIED");
    assertThat(recorded.record().body().get("critic").toString()).contains("approved=false").contains("blocking=false");
    assertThat(recorded.record().executionSequences()).hasSize(2);
    assertThat(plans.complete().phaseId()).isEqualTo("impl");
  }

  @Test
  void aSecretAFailingCommandPrintsIsWithheldFromItsFailureRecord() throws Exception {
    WorkPlans plans = plans();
    plans.setContract(CONTRACT);
    plans.save(TWO_PHASES);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);
    assertThat(plans.verify(false, false).passed()).isTrue();
    plans.complete();
    // The key is assembled at run time, so that only the output holds it, not the source.
    JavaProject.write(repository, "src/test/java/CalcTest.java", "public class CalcTest {\n  public static void main(String[] args) {\n"
        + "    System.err.println(\"connecting with \" + \"AKIA\" + \"IOSFODNN7EXAMPLQ\");\n"
        + "    System.err.println(\"connection refused\");\n    System.exit(3);\n  }\n}\n");

    PhaseVerification verification = plans.verify(false, false);

    FailureRecord failure = verification.runs().get(1).failure().orElseThrow();
    assertThat(failure.exitCode()).contains(3);
    assertThat(failure.excerpt()).doesNotContain("IOSFODNN7EXAMPLQ").contains("connection refused").contains("[line withheld");
    assertThat(store.phaseRecords("calc").get(store.phaseRecords("calc").size() - 1).record().body().toString())
        .doesNotContain("IOSFODNN7EXAMPLQ");
  }
}
