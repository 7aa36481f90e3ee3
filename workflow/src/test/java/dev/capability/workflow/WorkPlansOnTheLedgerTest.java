package dev.capability.workflow;

import static dev.capability.workflow.Fixtures.CONTRACT;
import static dev.capability.workflow.Fixtures.TWO_PHASES;
import static dev.capability.workflow.Fixtures.phase;
import static dev.capability.workflow.Fixtures.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole flow on the real store: the repository's SQLite ledger in {@code .capability/}, with
 * the real Java project under real bwrap. What was recorded reads back after the ledger is
 * reopened, and the ledger's chain verifies intact.
 */
class WorkPlansOnTheLedgerTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  /** No timed checkpoints: the ledger must not write into the repository while a command runs there. */
  private static final LedgerOptions WHILE_RUNNING = LedgerOptions.builder().checkpointMaxDelay(null).build();

  @TempDir Path tmp;
  private Path repository;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @BeforeEach
  void setUp() throws Exception {
    Files.setAttribute(tmp, "unix:mode", 0755);
    repository = JavaProject.create(tmp.resolve("repo"), tmp);
  }

  @Test
  void aPlanIsWorkedThroughOnTheLedgerAndTheChainStaysIntact() throws Exception {
    CommandKernel kernel = Fixtures.kernel(BWRAP.backend());
    try (SqliteLedger ledger = SqliteLedger.forRepository(repository, WHILE_RUNNING)) {
      WorkPlans plans = WorkPlans.builder(kernel, ledger, repository).build();
      plans.setContract(CONTRACT);
      assertThatThrownBy(() -> plans.save(plan(phase("impl", "[\"src/**\"]", "[\"javac -d target/classes src/main/java/Calc.java; id\"]", ""))))
          .isInstanceOfSatisfying(WorkflowException.class, e -> assertThat(e.code()).isEqualTo(WorkflowCodes.PLAN_COMMAND_SHELL_SYNTAX));
      assertThat(ledger.workPlanRevisions()).isEmpty();

      plans.save(TWO_PHASES);
      plans.recordTokens(java.util.Map.of("input", 1200L, "output", 340L));
      JavaProject.write(repository, "src/main/java/Calc.java", JavaProject.CALC);
      assertThat(plans.verify(false, true).passed()).isTrue();
      plans.complete();
      JavaProject.write(repository, "src/test/java/CalcTest.java", JavaProject.CALC_TEST);
      PhaseVerification tests = plans.verify(false, true);
      assertThat(tests.passed()).as(tests.message()).isTrue();
      plans.complete();
    }

    try (SqliteLedger reopened = SqliteLedger.forRepository(repository, WHILE_RUNNING)) {
      WorkPlans plans = WorkPlans.builder(kernel, reopened, repository).build();
      assertThat(plans.contract()).isPresent();
      assertThat(plans.current().orElseThrow().plan().phases()).hasSize(2);
      PhaseStatus status = plans.status();
      assertThat(status.completed()).containsExactly("impl", "tests");
      assertThat(status.active()).isEmpty();
      assertThat(reopened.phaseRecords("calc")).extracting(s -> s.record().event())
          .containsExactly("ACTIVATED", "TOKENS", "VERIFIED", "COMPLETED", "ACTIVATED", "VERIFIED", "COMPLETED");
      assertThat(reopened.phaseRecords("calc").get(1).record().body().get("counters").toString()).isEqualTo("{input=1200, output=340}");
      assertThat(reopened.reader().verify().intact()).as("%s", reopened.reader().verify()).isTrue();
    }
  }
}
