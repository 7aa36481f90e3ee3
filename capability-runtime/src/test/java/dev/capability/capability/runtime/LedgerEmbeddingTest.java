package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.ledger.LedgerEntry;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.LedgerReader;
import dev.capability.ledger.LedgerVerification;
import dev.capability.ledger.RecordKind;
import dev.capability.ledger.SqliteLedger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedder, not the CLI, wires the SQLite ledger into the runtime's builder: each run lands in
 * it as plan, approvals, the kernel's launch and a receipt that names that launch, on one chain
 * that verifies. The child-JVM runs are skipped with the probe's reason where bwrap cannot run.
 */
class LedgerEmbeddingTest {
  private static final BackendGate GATE = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String ENTRY = "com.example.Tool";
  /** No timed checkpoints: the ledger lives in the repository the launch is audited in. */
  private static final LedgerOptions WHILE_RUNNING = LedgerOptions.builder().checkpointMaxDelay(null).build();

  @TempDir Path repo;

  @BeforeEach
  void reachableBySandboxUser() throws IOException {
    // The sandbox runs as nobody: it must be able to enter the repository and write notes/.
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createDirectories(repo.resolve("notes"));
    Files.setPosixFilePermissions(repo.resolve("notes"), PosixFilePermissions.fromString("rwxrwxrwx"));
  }

  @AfterAll
  static void close() {
    GATE.close();
  }

  private CapabilityPackage notes() throws IOException {
    String source = """
        package com.example;
        public final class Tool implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) {
            try {
              java.nio.file.Files.writeString(context.writablePaths().get(0).resolve("note"), "x");
              return "{}";
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
        }
        """;
    byte[] jar = TestPackages.jar(Files.createDirectories(repo.getParent().resolve(repo.getFileName() + "-build")), Map.of(ENTRY, source), null, Map.of());
    return CapabilityPackages.open(TestPackages.directory(repo.resolve("packages/notes"), jar, ENTRY, "{\"filesystem.write\": [\"notes\"]}"));
  }

  /** Every event of a run, by name, in the order heard. */
  private static final class Heard implements CapabilityEventListener {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void planCreated(CapabilityPlan plan) {
      events.add("planCreated");
    }

    @Override
    public void approvalGiven(CapabilityPlan plan, Approval approval) {
      events.add("approvalGiven");
    }

    @Override
    public void requestDecided(CapabilityPlan plan, PolicyDecision decision) {
      events.add("requestDecided " + decision.allowed());
    }

    @Override
    public void launchStarted(CapabilityRequest request) {
      events.add("launchStarted");
    }

    @Override
    public void launchFinished(CapabilityRequest request, CapabilityResult result) {
      events.add("launchFinished");
    }

    @Override
    public void launchFailed(CapabilityRequest request, CapabilityException failure) {
      events.add("launchFailed");
    }

    @Override
    public void receiptIssued(ExecutionReceipt receipt) {
      events.add("receiptIssued " + receipt.outcome());
    }
  }

  @Test
  void aRunLandsInTheLedgerAsPlanApprovalExecutionAndALinkedReceiptThatVerify() throws IOException {
    CapabilityPackage pkg = notes();
    Heard heard = new Heard();
    ExecutionReceipt receipt;
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo, WHILE_RUNNING);
        CapabilityRuntime runtime = CapabilityRuntime.builder()
            .executor(new ChildJvmExecutor("bwrap", false, List.of(GATE.backend()), repo))
            .policy(EffectPolicies.permissive(Approval::grant))
            .evidenceStore(ledger)
            .approver("the test")
            .eventListener(heard)
            .build()) {
      receipt = runtime.run(pkg, "{\"text\":\"x\"}");
    }

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(heard.events).containsExactly(
        "planCreated", "approvalGiven", "requestDecided true", "launchStarted", "launchFinished", "receiptIssued SUCCEEDED");
    LedgerReader reader = LedgerReader.open(SqliteLedger.databaseFile(repo), LedgerOptions.defaults());
    LedgerEntry plan = reader.show(1).orElseThrow();
    LedgerEntry approval = reader.show(2).orElseThrow();
    LedgerEntry execution = reader.show(3).orElseThrow();
    LedgerEntry stored = reader.show(4).orElseThrow();
    assertThat(List.of(plan.kind(), approval.kind(), execution.kind(), stored.kind()))
        .containsExactly(RecordKind.PLAN, RecordKind.APPROVAL, RecordKind.EXECUTION, RecordKind.RECEIPT);
    assertThat(reader.show(5)).isEmpty();
    assertThat(plan.body()).containsEntry("fingerprint", receipt.planFingerprint()).containsKey("planId");
    Object planId = plan.body().get("planId");
    assertThat(approval.body()).containsEntry("planId", planId).containsEntry("fingerprint", receipt.planFingerprint())
        .containsEntry("approved", true).containsEntry("approver", "the test")
        .containsEntry("effects", List.of("filesystem.write(notes)"));
    assertThat(execution.body()).containsEntry("status", "COMPLETED").containsEntry("violations", List.of());
    List<String> changed = ((List<?>) execution.body().get("changes")).stream().map(change -> (String) ((Map<?, ?>) change).get("path")).toList();
    assertThat(changed).as("the ledger, written before and after the launch, is not in its audit").containsExactly("notes/note");
    assertThat(((Map<?, ?>) execution.body().get("backend")).get("id")).isEqualTo("bwrap");
    assertThat(stored.body()).containsEntry("planId", planId).containsEntry("status", "SUCCEEDED")
        .containsEntry("fingerprint", receipt.planFingerprint());
    assertThat(((Number) stored.body().get("executionSequence")).longValue()).isEqualTo(execution.sequence());
    assertThat((List<?>) stored.body().get("executionSequences")).singleElement()
        .satisfies(sequence -> assertThat(((Number) sequence).longValue()).isEqualTo(execution.sequence()));
    assertThat(stored.body().get("attestation")).as("the receipt's attestation is the linked execution's").isEqualTo(execution.body());
    assertThat(AttestationJson.fromJson(CanonicalJson.serialize(execution.body())))
        .as("the ledger holds the receipt's attestation in its JSON form").isEqualTo(receipt.attestation().orElseThrow());
    assertThat(List.of(plan, approval, execution, stored)).allSatisfy(entry -> assertThat(entry.hashMatches()).isTrue());
    assertThat(approval.prevHash()).isEqualTo(plan.hash());
    assertThat(execution.prevHash()).isEqualTo(approval.hash());
    assertThat(stored.prevHash()).isEqualTo(execution.hash());
    LedgerVerification verification = reader.verify();
    assertThat(verification.status()).as(verification.message()).isEqualTo(LedgerVerification.Status.INTACT);
  }

  @Test
  void aRefusedRunLandsAsPlanAndAReceiptWithNoExecution() throws IOException {
    CapabilityPackage pkg = notes();
    ExecutionReceipt receipt;
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo, WHILE_RUNNING);
        CapabilityRuntime runtime = CapabilityRuntime.builder().executor("in-process").evidenceStore(ledger).build()) {
      receipt = runtime.run(pkg, "{\"text\":\"x\"}");
    }

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    LedgerReader reader = LedgerReader.open(SqliteLedger.databaseFile(repo), LedgerOptions.defaults());
    assertThat(reader.show(1).orElseThrow().kind()).isEqualTo(RecordKind.PLAN);
    LedgerEntry stored = reader.show(2).orElseThrow();
    assertThat(stored.kind()).isEqualTo(RecordKind.RECEIPT);
    assertThat(stored.body()).containsEntry("status", "REFUSED").containsEntry("code", "POLICY_DENIED")
        .containsEntry("executionSequences", List.of()).containsEntry("executionSequence", null);
    assertThat(reader.verify().intact()).isTrue();
  }

  @Test
  void aStoreThatCannotRecordThePlanStopsTheRunBeforeAnythingIsLaunched() throws IOException {
    CapabilityPackage pkg = notes();
    Heard heard = new Heard();
    CapabilityEvidenceStore full = new CapabilityEvidenceStore() {
      @Override
      public long recordPlan(PlanRecord plan) {
        throw new IllegalStateException("disk full");
      }

      @Override
      public long recordApproval(ApprovalRecord approval) {
        throw new AssertionError("nothing after the plan");
      }

      @Override
      public long recordExecution(ExecutionRecord execution) {
        throw new AssertionError("nothing after the plan");
      }

      @Override
      public long recordReceipt(ReceiptRecord receipt) {
        throw new AssertionError("nothing after the plan");
      }
    };
    CapabilityRuntime runtime = CapabilityRuntime.builder()
        .executor("in-process").policy(EffectPolicies.permissive(Approval::grant)).evidenceStore(full).eventListener(heard).build();

    assertThatThrownBy(() -> runtime.run(pkg, "{\"text\":\"x\"}"))
        .isInstanceOfSatisfying(RunNotRecordedException.class, e -> {
          assertThat(e.code()).isEqualTo("EVIDENCE_NOT_RECORDED");
          assertThat(e.receipt()).isEmpty();
          assertThat(e.getMessage()).contains("plan").contains("disk full");
        });
    assertThat(heard.events).isEmpty();
    assertThat(repo.resolve("notes/note")).doesNotExist();
  }

  @Test
  void aReceiptTheStoreCannotRecordIsAttachedToTheError() throws IOException {
    CapabilityPackage pkg = notes();
    CapabilityEvidenceStore noReceipts = new CapabilityEvidenceStore() {
      private long sequence;

      @Override
      public long recordPlan(PlanRecord plan) {
        return ++sequence;
      }

      @Override
      public long recordApproval(ApprovalRecord approval) {
        return ++sequence;
      }

      @Override
      public long recordExecution(ExecutionRecord execution) {
        return ++sequence;
      }

      @Override
      public long recordReceipt(ReceiptRecord receipt) {
        throw new IllegalStateException("read-only");
      }
    };
    CapabilityRuntime runtime = CapabilityRuntime.builder().executor("in-process").evidenceStore(noReceipts).build();

    assertThatThrownBy(() -> runtime.run(pkg, "{\"text\":\"x\"}"))
        .isInstanceOfSatisfying(RunNotRecordedException.class, e ->
            assertThat(e.receipt()).hasValueSatisfying(r -> assertThat(r.outcome()).isEqualTo(ExecutionOutcome.REFUSED)));
  }

  @Test
  void aDriftedRunRecordsTheApprovedPlanAndItsRefusalWithoutDeciding() throws IOException {
    CapabilityPackage pkg = notes();
    Heard heard = new Heard();
    ExecutionReceipt receipt;
    CapabilityPlan approved;
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo, WHILE_RUNNING);
        CapabilityRuntime runtime = CapabilityRuntime.builder().executor("in-process").evidenceStore(ledger).eventListener(heard).build()) {
      approved = runtime.plan(pkg, "{\"text\":\"approved\"}");
      receipt = runtime.run(approved, pkg, "{\"text\":\"changed\"}");
    }

    assertThat(receipt.code()).isEqualTo("PLAN_DRIFT");
    assertThat(heard.events).containsExactly("planCreated", "receiptIssued REFUSED");
    LedgerReader reader = LedgerReader.open(SqliteLedger.databaseFile(repo), LedgerOptions.defaults());
    assertThat(reader.show(1).orElseThrow().body()).containsEntry("fingerprint", approved.fingerprint());
    assertThat(reader.show(2).orElseThrow().body()).containsEntry("fingerprint", approved.fingerprint()).containsEntry("code", "PLAN_DRIFT");
    assertThat(reader.verify().intact()).isTrue();
  }
}
