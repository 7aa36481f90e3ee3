package dev.capability.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.store.EvidenceNotRecordedException;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.ledger.EntrySummary;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.LedgerQuery;
import dev.capability.ledger.LedgerReader;
import dev.capability.ledger.RecordKind;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A host wires the SQLite ledger into the kernel as its evidence store: executions and denials land there. */
class KernelEvidenceTest {
  @TempDir Path tmp;

  private Path tool() throws Exception {
    Path tool = Files.createDirectories(tmp.resolve("bin")).resolve("tool");
    Files.writeString(tool, "#!/bin/sh\necho ran\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    return tool.toRealPath();
  }

  private CommandKernel.Builder kernel(Path tool) {
    ExecutionPolicy policy = ExecutionPolicy.builder().network(NetworkMode.HOST)
        .executable(ExecutableRule.atPath("tool", tool).exact().build()).build();
    return CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of());
  }

  @Test
  void executionsAndDenialsLandInTheLedgerAndItVerifies() throws Exception {
    Path tool = tool();
    Path db = Files.createDirectories(tmp.resolve("ledger")).resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, LedgerOptions.defaults());
        CommandKernel kernel = kernel(tool).evidenceStore(ledger).build()) {
      assertThat(kernel.execute(ExecutionRequest.argv(tool.toString()).backend("process").build()).status())
          .isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(kernel.execute(ExecutionRequest.argv(tool.toString(), "not-allowed").build()).status())
          .isEqualTo(ExecutionStatus.DENIED);
    }
    LedgerReader reader = LedgerReader.open(db, LedgerOptions.defaults());
    List<EntrySummary> entries = reader.list(LedgerQuery.latest(10));
    assertThat(entries).hasSize(2);
    assertThat(reader.verify().intact()).isTrue();
  }

  @Test
  void checkRecordsItsDecisionTimedByTheKernelsClock() throws Exception {
    Path tool = tool();
    Path db = Files.createDirectories(tmp.resolve("ledger")).resolve("state.db");
    Instant decided = Instant.parse("2026-01-02T03:04:05Z");
    try (SqliteLedger ledger = SqliteLedger.open(db, LedgerOptions.defaults());
        CommandKernel kernel = kernel(tool).clock(Clock.fixed(decided, ZoneOffset.UTC)).decisionStore(ledger).build()) {
      assertThat(kernel.check(ExecutionRequest.argv(tool.toString(), "not-allowed").build()).decision().allowed()).isFalse();
    }
    LedgerReader reader = LedgerReader.open(db, LedgerOptions.defaults());
    Map<String, Object> body = reader.show(1).orElseThrow().body();
    assertThat(reader.show(1).orElseThrow().kind()).isEqualTo(RecordKind.DECISION);
    assertThat(body).containsEntry("decidedAt", decided.toString()).containsEntry("argv", List.of(tool.toString(), "not-allowed"));
    assertThat(((Map<?, ?>) body.get("decision")).get("allowed")).isEqualTo(false);
    assertThat(reader.verify().intact()).isTrue();
  }

  @Test
  void aFailingStoreKeepsTheOutcomeAttachedToTheError() throws Exception {
    Path tool = tool();
    EvidenceStore broken = result -> {
      throw new IllegalStateException("disk full");
    };
    try (CommandKernel kernel = kernel(tool).evidenceStore(broken).build()) {
      assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(tool.toString()).backend("process").build()))
          .isInstanceOfSatisfying(EvidenceNotRecordedException.class, e -> {
            ExecutionResult result = e.result();
            assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
            assertThat(result.stdout().text()).isEqualTo("ran\n");
            assertThat(e.code()).isEqualTo("EVIDENCE_NOT_RECORDED");
          });
    }
  }
}
