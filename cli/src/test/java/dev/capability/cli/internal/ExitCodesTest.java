package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.policy.PolicyCodes;
import dev.capability.ledger.LedgerCodes;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The exit code table in code against the one in docs/cli.md, and what the mapper does with each kind of error. */
class ExitCodesTest {
  private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\| (.*) \\|$");

  /** The rows of the table under "## Exit codes" in docs/cli.md: exit code to its meaning. */
  private static Map<Integer, String> documentedTable() throws IOException {
    String page = Files.readString(DocumentedCommandsTest.root().resolve("docs/cli.md"));
    String section = page.substring(page.indexOf("## Exit codes\n"));
    section = section.substring(0, section.indexOf("\n## ", 1));
    Map<Integer, String> rows = new TreeMap<>();
    for (String line : section.split("\n")) {
      Matcher row = ROW.matcher(line);
      if (row.matches()) {
        rows.put(Integer.parseInt(row.group(1)), row.group(2));
      }
    }
    return rows;
  }

  @Test
  void everyExitCodeConstantIsARowOfTheDocumentedTableAndEveryRowAConstant() throws IOException {
    Map<Integer, String> documented = documentedTable();
    Integer[] constants = Arrays.stream(ExitCodes.class.getFields())
        .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == int.class)
        .map(ExitCodesTest::intValue)
        .toArray(Integer[]::new);

    assertThat(documented.keySet()).containsExactlyInAnyOrder(constants);
  }

  @Test
  void everyCodeConstantMapsToADocumentedExitCodeWhoseRowNamesItOrItsFamily() throws IOException {
    Map<Integer, String> documented = documentedTable();
    assertThat(ExitCodes.CODE_FAMILIES).isNotEmpty();
    ExitCodes.CODE_FAMILIES.forEach((family, familyExit) -> {
      assertThat(ExitCodes.constants(family)).as(family.getSimpleName()).isNotEmpty();
      for (String code : ExitCodes.constants(family)) {
        int exit = ExitCodes.forCode(code);
        assertThat(documented).as("exit %d of %s.%s", exit, family.getSimpleName(), code).containsKey(exit);
        String row = documented.get(exit);
        boolean named = row.contains("`" + code + "`") || row.contains("`" + family.getSimpleName() + "`");
        assertThat(named).as("the row of exit %d names %s or %s: %s", exit, code, family.getSimpleName(), row).isTrue();
      }
    });
  }

  @Test
  void theFourMeaningsThatSharedTwoCodesNowHaveFourCodes() {
    assertThat(new int[] {ExitCodes.DENIED, ExitCodes.CAPABILITY_FAILED, ExitCodes.CONFIGURATION, ExitCodes.CAPABILITY_REFUSED})
        .doesNotHaveDuplicates();
    assertThat(ExitCodes.forCode(CapabilityCodes.POLICY_DENIED)).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(ExitCodes.forCode(PolicyCodes.POLICY_WRITABLE_BY_OTHERS)).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(ExitCodes.forCode(CliCodes.INPUT_NOT_UTF8)).isEqualTo(ExitCodes.DENIED);
    assertThat(ExitCodes.forCode(LedgerCodes.LEDGER_NOT_INTACT)).isEqualTo(ExitCodes.NOT_INTACT);
    assertThat(ExitCodes.forCode(CapabilityCodes.ISOLATION_UNAVAILABLE)).isEqualTo(ExitCodes.CANNOT_EXECUTE);
  }

  @Test
  void exceptionsMapByTypeThenCodeAndExecKeepsItsOwnTable() {
    CapabilityException policy = new PolicyException(PolicyCodes.POLICY_NOT_FOUND, "no policy");
    CapabilityException unavailable = new BackendUnavailableException(CapabilityCodes.ISOLATION_UNAVAILABLE, "no sandbox");

    assertThat(ExitCodes.COMMANDS.getExitCode(policy)).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(ExitCodes.COMMANDS.getExitCode(unavailable)).isEqualTo(ExitCodes.CANNOT_EXECUTE);
    assertThat(ExitCodes.COMMANDS.getExitCode(new IllegalArgumentException("bad limit"))).isEqualTo(ExitCodes.USAGE);
    assertThat(ExitCodes.COMMANDS.getExitCode(new IllegalStateException("bug"))).isEqualTo(ExitCodes.INTERNAL_ERROR);
    assertThat(ExitCodes.EXEC.getExitCode(policy)).isEqualTo(ExitCodes.KERNEL_REFUSED);
    assertThat(ExitCodes.EXEC.getExitCode(new CapabilityException(CliCodes.INPUT_NOT_UTF8, "not UTF-8")))
        .isEqualTo(ExitCodes.KERNEL_REFUSED);
    assertThat(ExitCodes.EXEC.getExitCode(unavailable)).isEqualTo(ExitCodes.CANNOT_EXECUTE);
    assertThat(ExitCodes.EXEC.getExitCode(new IllegalStateException("bug"))).isEqualTo(ExitCodes.INTERNAL_ERROR);
  }

  @Test
  void filteredNetworkThatCannotBeSuppliedCannotExecuteLikeMissingIsolation() {
    CapabilityException noFilter = new NetworkFilterUnavailableException("no egress gateway is installed");

    assertThat(ExitCodes.EXEC.getExitCode(noFilter)).isEqualTo(ExitCodes.CANNOT_EXECUTE);
    assertThat(ExitCodes.COMMANDS.getExitCode(noFilter)).isEqualTo(ExitCodes.CANNOT_EXECUTE);
    assertThat(ExitCodes.forCode(NetworkFilterUnavailableException.CODE)).isEqualTo(ExitCodes.CANNOT_EXECUTE);
  }

  @Test
  void aRefusedShippedWorkspaceExitsLikeWritesTheAuditRefusedWhateverTheCommandExitedWith() {
    Attestation attestation = Attestation.builder().kernelVersion("test").status(ExecutionStatus.WORKSPACE_REFUSED).argv(List.of("make"))
        .commandSpecHash("0".repeat(64)).decision(Decision.allow("operator", "make")).policyHash("0".repeat(64)).policySource("code")
        .network(NetworkMode.NONE).projectWrites(ProjectWriteMode.SCOPED).writeBoundaries(new Attestation.WriteBoundaries(null, null, null, null))
        .startedAt(Instant.EPOCH).finishedAt(Instant.EPOCH).exitCode(0)
        .workspace(new Attestation.Workspace(10240, 3, "0".repeat(64), 2048, "WORKSPACE_RETURN_TRAVERSAL"))
        .build();
    ExecutionResult refused = new ExecutionResult(ExecutionStatus.WORKSPACE_REFUSED, Decision.allow("operator", "make"), List.of("make"),
        OptionalInt.of(0), CapturedOutput.empty(), CapturedOutput.empty(), attestation, "WORKSPACE_RETURN_TRAVERSAL: the entry '../x'");

    assertThat(ExitCodes.forExec(refused)).isEqualTo(ExitCodes.WRITE_VIOLATION);
  }

  @Test
  void aMalformedCommandLineIsAUsageErrorForEveryCommand() {
    assertThat(CliRunner.run("search", "notes").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(CliRunner.run("exec", "--no-such-option", "--", "true").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(CliRunner.run("ledger", "show", "not-a-number").exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void theMapperIsWhatTheCommandLineUsesAndAnErrorIsReportedOnceInTheShapeAsked() {
    CliRunner.Outcome plain = CliRunner.run("ledger", "verify", "--db", Path.of("/nonexistent/state.db").toString());
    CliRunner.Outcome json = CliRunner.run("ledger", "verify", "--json", "--db", Path.of("/nonexistent/state.db").toString());

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(plain.err()).startsWith("capability: LEDGER_").doesNotContain("internal error");
    assertThat(plain.out()).isEmpty();
    assertThat(json.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(json.out()).startsWith("{\"error\":{\"code\":\"LEDGER_").endsWith("}\n");
    assertThat(json.err()).isEmpty();
  }

  private static int intValue(Field field) {
    try {
      return field.getInt(null);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }
}
