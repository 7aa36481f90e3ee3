package dev.capability.workflow;

import static dev.capability.workflow.AssumptionFixtures.PLAN;
import static dev.capability.workflow.AssumptionFixtures.assumption;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrections verified for real: a real Git repository, its real SQLite ledger, the phase's
 * acceptance command run by the kernel under real bwrap with the correction layer. A file changed
 * inside the radius passes; one outside it fails as a scope violation until a justified expansion
 * covers it; an assumption linking outside the phase widens nothing; advice changes nothing.
 */
class CorrectionInSandboxTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @TempDir Path tmp;
  private Path repository;
  private SqliteLedger ledger;
  private Assumptions assumptions;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @BeforeEach
  void setUp() throws Exception {
    Files.setAttribute(tmp, "unix:mode", 0755);
    repository = JavaProject.create(tmp.resolve("repo"), tmp);
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);
    JavaProject.write(repository, "src/main/java/Util.java", "class Util {}\n");
    // The kernel is never closed: closing it closes the gate's backend.
    CommandKernel kernel = Fixtures.kernel(BWRAP.backend());
    ledger = SqliteLedger.forRepository(repository, LedgerOptions.builder().checkpointMaxDelay(null).build());
    WorkPlans plans = WorkPlans.builder(kernel, ledger, repository).build();
    plans.setContract(Fixtures.CONTRACT);
    plans.save(PLAN);
    assumptions = Assumptions.builder(kernel, ledger, repository).build();
  }

  @AfterEach
  void tearDown() {
    ledger.close();
  }

  @Test
  void anEditInsideTheRadiusPassesAndResolvesOnItsVerification() throws Exception {
    assumptions.record(assumption("ints", "[\"src/main/java/Calc.java\"]"));
    assumptions.invalidate("ints", "sums overflow int");
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC.replace("int", "long"));

    PhaseVerification v = assumptions.verifyCorrection("ints");
    assertThat(v.passed()).as(v.message() + v.runs()).isTrue();
    assertThat(v.changedPaths()).containsExactly("src/main/java/Calc.java");
    assertThat(v.runs()).singleElement().satisfies(run -> assertThat(run.command()).isEqualTo(AssumptionFixtures.CHECK_ADD));
    CorrectionOutcome outcome = assumptions.resolve("ints", "Calc adds longs");
    assertThat(outcome.resolved()).isTrue();
    assertThat(outcome.verificationSequence()).contains(v.sequence());
    assertThat(assumptions.show("ints").status()).isEqualTo("RESOLVED");
    assertThat(ledger.reader().verify().intact()).isTrue();
  }

  @Test
  void anEditOutsideTheRadiusIsAScopeViolationUntilAJustifiedExpansionCoversIt() throws Exception {
    assumptions.record(assumption("ints", "[\"src/main/java/Calc.java\"]"));
    assumptions.invalidate("ints", "sums overflow int");
    JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC.replace("int", "long"));
    JavaProject.write(repository, "src/main/java/Util.java", "class Util { static long widen(int i) { return i; } }\n");

    PhaseVerification outside = assumptions.verifyCorrection("ints");
    assertThat(outside.passed()).isFalse();
    assertThat(outside.failureCode()).contains(WorkflowCodes.PHASE_SCOPE_VIOLATION);
    assertThat(outside.violations()).extracting(Attestation.Violation::path).containsExactly("src/main/java/Util.java");
    assertThat(outside.violations()).extracting(Attestation.Violation::layer).containsExactly("correction");
    assertThat(assumptions.show("ints").verifications()).extracting(PhaseVerification::passed).containsExactly(false);

    assumptions.expandCorrectionScope("ints", List.of("src/main/java/Util.java"), "the widening helper lives in Util");
    PhaseVerification expanded = assumptions.verifyCorrection("ints");
    assertThat(expanded.passed()).as(expanded.message()).isTrue();
    assertThat(assumptions.resolve("ints", "fixed").verificationSequence()).contains(expanded.sequence());
  }

  @Test
  void anAssumptionLinkingOutsideThePhaseScopeWidensNothing() throws Exception {
    // Phase "impl" may write src/main/** only: the test file and docs are outside it (docs outside the contract too).
    assumptions.record(assumption("wide", "[\"src/main/java/Calc.java\", \"src/test/java/CalcTest.java\", \"docs/notes.md\", \"src/test/**\"]"));
    Invalidation inv = assumptions.invalidate("wide", "wrong");
    assertThat(inv.radius().files()).containsExactly("src/main/java/Calc.java");
    assertThat(inv.radius().excluded()).containsOnlyKeys("src/test/java/CalcTest.java", "docs/notes.md");
    JavaProject.write(repository, "src/test/java/CalcTest.java", JavaProject.CALC_TEST);

    PhaseVerification v = assumptions.verifyCorrection("wide");
    assertThat(v.failureCode()).contains(WorkflowCodes.PHASE_SCOPE_VIOLATION);
    assertThat(v.violations()).extracting(Attestation.Violation::path).contains("src/test/java/CalcTest.java");
  }

  @Test
  void aCommandRunInsideTheCorrectionWritesItsFileAndASiblingItWritesIsAViolation() throws Exception {
    // The correction layer names one file; the sandbox mounts its directory, so the attack can
    // write a sibling there, and the kernel's own audit of that command must flag it.
    String attack = "echo 'class Calc {}' > src/main/java/Calc.java; echo leaked > src/main/java/Sibling.java";
    CommandKernel attacker = CommandKernel.builder(ExecutionPolicies.of(Fixtures.policy()
            .executable(ExecutableRule.named("sh").exact("-c", attack).build()).network(NetworkMode.NONE).build()))
        .discoverBackends(false)
        .backend(BWRAP.backend())
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .build();
    // The sandbox runs as its own uid: the file it may change must be writable by it, as the directories are.
    Files.setAttribute(repository.resolve("src/main/java/Calc.java"), "unix:mode", 0666);
    assumptions.record(assumption("ints", "[\"src/main/java/Calc.java\"]"));
    assumptions.invalidate("ints", "sums overflow int");
    ExecutionRequest.Builder request = ExecutionRequest.argv("sh", "-c", attack).repository(repository)
        .layer(WorkPlans.readContract(Fixtures.CONTRACT).layer())
        .layer(WorkPlans.readPlan(PLAN).phases().get(0).layer())
        .layer(assumptions.correctionLayer("ints"));

    ExecutionResult result = attacker.execute(request.build());

    assertThat(result.status()).as(result.attestation().toString()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(Files.readString(repository.resolve("src/main/java/Calc.java"))).isEqualTo("class Calc {}\n");
    assertThat(result.attestation().violations()).extracting(Attestation.Violation::path).containsExactly("src/main/java/Sibling.java");
    assertThat(result.attestation().violations()).extracting(Attestation.Violation::layer).containsExactly("correction");
  }

  @Test
  void apologyAdviceNeverChangesWhatTheCorrectionMayDo() throws Exception {
    assumptions.record(assumption("ints", "[\"src/main/java/Calc.java\"]"));
    assumptions.invalidate("ints", "sums overflow int");
    JavaProject.write(repository, "src/main/java/Util.java", "class Util { int x; }\n");
    assertThat(assumptions.adviceFor("I apologize, my mistake: I should have changed Util too.")).isPresent();
    PhaseVerification v = assumptions.verifyCorrection("ints");
    assertThat(v.failureCode()).contains(WorkflowCodes.PHASE_SCOPE_VIOLATION);
    assertThat(assumptions.show("ints").expansions()).isEmpty();
  }
}
