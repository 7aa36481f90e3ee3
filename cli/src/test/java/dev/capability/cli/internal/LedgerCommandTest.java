package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.WorkPlanRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code capability ledger ...} on a real ledger written through the API. */
class LedgerCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path repo;

  private static CliRunner.Outcome run(String... args) {
    return CliRunner.run(args);
  }

  static ExecutionResult result(List<String> argv, ExecutionStatus status, Integer exit, Instant at) {
    Decision decision = status == ExecutionStatus.DENIED
        ? Decision.deny("FLAG_NOT_ALLOWED", "operator", "executables.git.flags", 1, "refused")
        : Decision.allow("operator", "executables." + argv.get(0));
    Attestation a = Attestation.builder()
        .kernelVersion("test")
        .status(status)
        .argv(argv)
        .commandSpecHash(Sha256.hex(argv.toString().getBytes(StandardCharsets.UTF_8)))
        .decision(decision)
        .policyHash(Sha256.hex(new byte[0]))
        .policySource("code")
        .executable(status == ExecutionStatus.DENIED ? null
            : new Attestation.Executable("/usr/bin/" + argv.get(0), Sha256.hex(new byte[1]), "proc_fd"))
        .backend(status == ExecutionStatus.DENIED ? null
            : new Attestation.Backend("process", Set.of(), Attestation.Backend.Choice.NAMED, "named by the request"))
        .environment(new Attestation.Environment(List.of("PATH"), List.of()))
        .network(NetworkMode.HOST)
        .projectWrites(ProjectWriteMode.READ_ONLY)
        .writeBoundaries(new Attestation.WriteBoundaries(List.of(), null, null, null))
        .startedAt(at)
        .finishedAt(at)
        .exitCode(exit)
        .build();
    return new ExecutionResult(status, decision, argv, exit == null ? OptionalInt.empty() : OptionalInt.of(exit),
        CapturedOutput.empty(), CapturedOutput.empty(), a, null);
  }

  @BeforeEach
  void ledger() {
    try (dev.capability.ledger.SqliteLedger ledger = dev.capability.ledger.SqliteLedger.forRepository(repo)) {
      ledger.record(result(List.of("git", "status"), ExecutionStatus.COMPLETED, 0, Instant.parse("2026-11-30T10:00:00Z")));
      ledger.record(result(List.of("git", "-c", "x"), ExecutionStatus.DENIED, null, Instant.parse("2026-11-30T10:01:00Z")));
      ledger.record(result(List.of("make", "all"), ExecutionStatus.COMPLETED, 2, Instant.parse("2026-11-30T10:02:00Z")));
    }
  }

  @Test
  void listPrintsRecordsNewestFirstAndFilters() throws Exception {
    CliRunner.Outcome plain = run("ledger", "list", "--repo", repo.toString());
    assertThat(plain.exitCode()).as(plain.err()).isZero();
    assertThat(plain.out().lines().toList()).hasSize(3);
    assertThat(plain.out().lines().findFirst().orElseThrow()).startsWith("3  ").contains("execution  COMPLETED  2  \"make\" \"all\"");

    CliRunner.Outcome json = run("ledger", "list", "--repo", repo.toString(), "--json", "--status", "denied");
    JsonNode records = JSON.readTree(json.out()).get("records");
    assertThat(records).hasSize(1);
    assertThat(records.get(0).get("seq").asLong()).isEqualTo(2);
    assertThat(records.get(0).get("argv").get(1).asText()).isEqualTo("-c");

    assertThat(JSON.readTree(run("ledger", "list", "--repo", repo.toString(), "--json", "--limit", "1").out()).get("records"))
        .hasSize(1);
    assertThat(JSON.readTree(run("ledger", "list", "--repo", repo.toString(), "--json", "--since", "1h").out()).get("records"))
        .as("recorded just now").hasSize(3);
    assertThat(JSON.readTree(run("ledger", "list", "--repo", repo.toString(), "--json", "--since", "2999-01-01").out()).get("records"))
        .isEmpty();
    assertThat(run("ledger", "list", "--repo", repo.toString(), "--since", "yesterday").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run("ledger", "list", "--repo", repo.toString(), "--kind", "nonsense").exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void showPrintsOneRecordWithItsHashes() throws Exception {
    CliRunner.Outcome json = run("ledger", "show", "2", "--repo", repo.toString(), "--json");
    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode record = JSON.readTree(json.out());
    assertThat(record.get("kind").asText()).isEqualTo("execution");
    assertThat(record.get("hashMatches").asBoolean()).isTrue();
    assertThat(record.get("body").get("decision").get("code").asText()).isEqualTo("FLAG_NOT_ALLOWED");

    CliRunner.Outcome missing = run("ledger", "show", "99", "--repo", repo.toString(), "--json");
    assertThat(missing.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(JSON.readTree(missing.out()).get("error").get("code").asText()).isEqualTo("LEDGER_NO_SUCH_RECORD");
  }

  @Test
  void verifyExitsZeroWhenIntactAndOneWithTheCodeAndSequenceWhereItBroke() throws Exception {
    CliRunner.Outcome intact = run("ledger", "verify", "--repo", repo.toString());
    assertThat(intact.exitCode()).as(intact.out() + intact.err()).isZero();
    assertThat(intact.out()).startsWith("INTACT: 3 records");

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + repo.resolve(".capability/state.db"));
        Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE executions SET attestation = replace(attestation, '\"exitCode\":2', '\"exitCode\":0') WHERE seq = 3");
    }
    CliRunner.Outcome broken = run("ledger", "verify", "--repo", repo.toString());
    assertThat(broken.exitCode()).isEqualTo(ExitCodes.NOT_INTACT);
    assertThat(broken.out()).startsWith("CHAIN_BROKEN at 3: ");
    JsonNode json = JSON.readTree(run("ledger", "verify", "--repo", repo.toString(), "--json").out());
    assertThat(json.get("status").asText()).isEqualTo("CHAIN_BROKEN");
    assertThat(json.get("sequence").asLong()).isEqualTo(3);
    assertThat(json.get("completeness").get("status").asText()).isEqualTo("INTACT");
  }

  @Test
  void verifyReportsDeletedTrailingRecords() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + repo.resolve(".capability/state.db"));
        Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM executions WHERE seq = 3");
      s.executeUpdate("DELETE FROM entries WHERE seq = 3");
    }
    CliRunner.Outcome truncated = run("ledger", "verify", "--repo", repo.toString(), "--json");
    assertThat(truncated.exitCode()).isEqualTo(ExitCodes.NOT_INTACT);
    JsonNode json = JSON.readTree(truncated.out());
    assertThat(json.get("status").asText()).isEqualTo("TRUNCATED_BELOW_CHECKPOINT");
    assertThat(json.get("sequence").asLong()).isEqualTo(3);
  }

  @Test
  void exportWritesJsonLinesOrSignedInTotoEnvelopes() throws Exception {
    CliRunner.Outcome jsonl = run("ledger", "export", "--repo", repo.toString());
    assertThat(jsonl.exitCode()).as(jsonl.err()).isZero();
    assertThat(jsonl.out().lines().map(l -> {
      try {
        return JSON.readTree(l).get("seq").asLong();
      } catch (Exception e) {
        throw new AssertionError(l, e);
      }
    }).toList()).containsExactly(1L, 2L, 3L);

    CliRunner.Outcome intoto = run("ledger", "export", "--format", "intoto", "--repo", repo.toString());
    assertThat(intoto.exitCode()).as(intoto.err()).isZero();
    List<String> envelopes = intoto.out().lines().toList();
    assertThat(envelopes).hasSize(3);
    JsonNode envelope = JSON.readTree(envelopes.get(0));
    assertThat(envelope.get("payloadType").asText()).isEqualTo("application/vnd.in-toto+json");
    JsonNode statement = JSON.readTree(java.util.Base64.getDecoder().decode(envelope.get("payload").asText()));
    assertThat(statement.get("_type").asText()).isEqualTo("https://in-toto.io/Statement/v1");

    assertThat(run("ledger", "export", "--format", "xml", "--repo", repo.toString()).exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void aWorkPlansRecordsAreListedShownVerifiedAndExported() throws Exception {
    try (dev.capability.ledger.SqliteLedger ledger = dev.capability.ledger.SqliteLedger.forRepository(repo)) {
      ledger.recordContract(new ContractRecord("sha256:c0ffee", Map.of("writeScopes", List.of("src/**"))));
      ledger.recordWorkPlan(new WorkPlanRecord("wp-1", 1, "sha256:beef", Map.of("plan", Map.of("phases", List.of()))));
      ledger.recordPhase(new PhaseRecord("wp-1", 1, "build", "VERIFICATION_FAILED", List.of(3L), Map.of("exitStatus", 2)));
    }
    CliRunner.Outcome plain = run("ledger", "list", "--repo", repo.toString(), "--limit", "3");
    assertThat(plain.exitCode()).as(plain.err()).isZero();
    assertThat(plain.out().lines().toList()).hasSize(3);
    assertThat(plain.out().lines().toList().get(0)).startsWith("6  ")
        .endsWith("  phase  VERIFICATION_FAILED  -  work plan \"wp-1\" revision 1 phase \"build\"");
    assertThat(plain.out().lines().toList().get(1)).startsWith("5  ").endsWith("  work_plan  -  -  work plan \"wp-1\" revision 1 sha256:beef");
    assertThat(plain.out().lines().toList().get(2)).startsWith("4  ").endsWith("  contract  -  -  contract sha256:c0ffee");

    JsonNode phases = JSON.readTree(run("ledger", "list", "--repo", repo.toString(), "--json", "--kind", "phase").out()).get("records");
    assertThat(phases).hasSize(1);
    assertThat(phases.get(0).get("workPlanId").asText()).isEqualTo("wp-1");
    assertThat(phases.get(0).get("planRevision").asInt()).isEqualTo(1);
    assertThat(phases.get(0).get("phaseId").asText()).isEqualTo("build");
    assertThat(JSON.readTree(run("ledger", "list", "--repo", repo.toString(), "--json", "--kind", "work-plan").out())
        .get("records").get(0).get("contentHash").asText()).isEqualTo("sha256:beef");

    JsonNode shown = JSON.readTree(run("ledger", "show", "6", "--repo", repo.toString(), "--json").out());
    assertThat(shown.get("kind").asText()).isEqualTo("phase");
    assertThat(shown.get("hashMatches").asBoolean()).isTrue();
    assertThat(shown.get("body").get("executionSequences").get(0).asLong()).isEqualTo(3);

    CliRunner.Outcome intact = run("ledger", "verify", "--repo", repo.toString());
    assertThat(intact.exitCode()).as(intact.out() + intact.err()).isZero();
    assertThat(intact.out()).startsWith("INTACT: 6 records");
    assertThat(run("ledger", "export", "--repo", repo.toString()).out().lines().map(l -> {
      try {
        return JSON.readTree(l).get("kind").asText();
      } catch (Exception e) {
        throw new AssertionError(l, e);
      }
    }).toList()).containsExactly("execution", "execution", "execution", "contract", "work_plan", "phase");
    assertThat(run("ledger", "export", "--format", "intoto", "--repo", repo.toString()).out().lines().toList())
        .as("only executions and acquisitions become statements").hasSize(3);

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + repo.resolve(".capability/state.db"));
        Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE phases SET body = replace(body, 'VERIFICATION_FAILED', 'VERIFIED') WHERE seq = 6");
    }
    CliRunner.Outcome broken = run("ledger", "verify", "--repo", repo.toString());
    assertThat(broken.exitCode()).isEqualTo(ExitCodes.NOT_INTACT);
    assertThat(broken.out()).startsWith("CHAIN_BROKEN at 6: ");
  }

  @Test
  void aRepositoryWithoutALedgerIsAConfigurationError(@TempDir Path empty) throws Exception {
    CliRunner.Outcome run = run("ledger", "verify", "--repo", empty.toString(), "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(JSON.readTree(run.out()).get("error").get("code").asText()).isEqualTo("LEDGER_NOT_FOUND");
    assertThat(empty).isEmptyDirectory();
  }

  @Test
  void exportTakesJsonAndThenReportsErrorsAsOneJsonDocument(@TempDir Path empty) throws Exception {
    CliRunner.Outcome missing = run("ledger", "export", "--repo", empty.toString(), "--json");
    CliRunner.Outcome badFormat = run("ledger", "export", "--format", "xml", "--repo", empty.toString(), "--json");

    assertThat(missing.exitCode()).as(missing.err()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(JSON.readTree(missing.out()).get("error").get("code").asText()).isEqualTo("LEDGER_NOT_FOUND");
    assertThat(missing.err()).isEmpty();
    assertThat(badFormat.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(JSON.readTree(badFormat.out()).get("error").get("message").asText()).contains("jsonl or intoto");
  }

  @Test
  void theLedgerCommandNeedsASubcommand() {
    assertThat(run("ledger").exitCode()).isEqualTo(ExitCodes.USAGE);
  }
}
