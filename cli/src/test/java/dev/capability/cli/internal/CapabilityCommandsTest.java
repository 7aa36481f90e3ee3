package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.TestPackages;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CapabilityCommandsTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String HELLO = "../examples/capabilities/hello";
  private static final String INPUT = "{\"name\":\"Ada\"}";

  @Test
  void inspectsTheHelloExample() {
    CliRunner.Outcome outcome = CliRunner.run("inspect", HELLO);

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out()).contains("name: hello").contains("effects: []").contains("hooks: [verify]");
  }

  @Test
  void plansWithAFingerprint() {
    CliRunner.Outcome outcome = CliRunner.run("plan", HELLO, "--input", INPUT, "--executor", "in-process", "--json");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out()).containsPattern("\"fingerprint\":\"[0-9a-f]{64}\"");
  }

  @Test
  void runsHelloInProcessSayingNoBoundaryApplied() {
    CliRunner.Outcome outcome = CliRunner.run("run", HELLO, "--input", INPUT, "--executor", "in-process", "--no-ledger", "--json");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out()).contains("\"status\":\"SUCCEEDED\"").contains("\"boundaryApplied\":false").contains("Hello, Ada!");
  }

  @Test
  void runsHelloInTheSandboxedChildJvmByDefault() throws Exception {
    BWRAP.backend();
    CliRunner.Outcome outcome = CliRunner.run("run", HELLO, "--input", INPUT, "--no-ledger", "--json");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    assertThat(outcome.out()).contains("\"executor\":\"child-jvm\"").contains("\"boundaryApplied\":true").contains("Hello, Ada!");
    JsonNode attestation = new ObjectMapper().readTree(outcome.out()).get("attestation");
    assertThat(attestation.isObject()).as("the receipt embeds the attestation as an object").isTrue();
    assertThat(attestation.get("network").asText()).isEqualTo("none");
    Attestation read = AttestationJson.fromJson(attestation.toString());
    assertThat(read.network()).isEqualTo(NetworkMode.NONE);
    assertThat(read.status()).isEqualTo(ExecutionStatus.COMPLETED);
  }

  @Test
  void thePlainReceiptSaysWhatRanWhereInWordsAndWhereItWasRecorded(@TempDir Path repo) throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("run", HELLO, "--input", INPUT, "--executor", "in-process", "--repo", repo.toString());

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out())
        .doesNotContain("SUCCEEDED (SUCCEEDED)")
        .contains("outcome: SUCCEEDED\n")
        .contains("boundary: executor in-process, no isolation boundary: the code ran with the host's full authority\n")
        .contains("  declared (what the package says it may do): none\n")
        .contains("  granted (what the policy allowed this run): none\n")
        .contains("  used (granted writes the kernel saw change files")
        .contains("recorded: " + repo.toRealPath().resolve(".capability/state.db") + ", records 1-2 (plan, 0 approvals, receipt)\n");
    CliRunner.Outcome receipt = CliRunner.run("ledger", "show", "2", "--repo", repo.toString(), "--json");
    assertThat(receipt.out()).contains("\"kind\":\"receipt\"");
  }

  @Test
  void thePlainReceiptNamesTheBackendTheChildJvmRanUnder() {
    BWRAP.backend();
    // Named: without --backend the rule may choose Docker where its image exists (RunBackendChoiceTest).
    CliRunner.Outcome outcome = CliRunner.run("run", HELLO, "--input", INPUT, "--no-ledger", "--backend", "bwrap");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    assertThat(outcome.out()).containsPattern("boundary: executor child-jvm under the bwrap backend \\([A-Z_, ]+\\)\n")
        .contains("recorded: no (--no-ledger)\n");
    Matcher capabilities = Pattern.compile("under the bwrap backend \\(([A-Z_, ]+)\\)").matcher(outcome.out());
    assertThat(capabilities.find()).isTrue();
    assertThat(List.of(capabilities.group(1).split(", "))).as("by name, as the attestation lists them").isSorted().hasSizeGreaterThan(1);
  }

  @Test
  void refusesInputAgainstTheSchemaAndUnknownPoliciesAsCapabilityRefusals() {
    CliRunner.Outcome badInput = CliRunner.run("run", HELLO, "--input", "{\"name\":5}", "--executor", "in-process");
    CliRunner.Outcome badPolicy = CliRunner.run("run", HELLO, "--input", INPUT, "--executor", "in-process", "--policy", "lenient");

    assertThat(badInput.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(badInput.err()).contains("INPUT_INVALID");
    assertThat(badPolicy.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(badPolicy.err()).contains("POLICY_FILE_INVALID");
  }

  @Test
  void aMissingPackageIsACapabilityRefusal() {
    CliRunner.Outcome outcome = CliRunner.run("run", "../examples/capabilities/missing", "--input", INPUT);

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.err()).contains("PACKAGE_UNREADABLE");
  }

  @Test
  void aPackageThatLoadsClassesByComputedNameIsRefusedUntilItDeclaresReflection(@TempDir Path work) throws Exception {
    String entry = "com.example.Loader";
    String source =
        """
        package com.example;
        public final class Loader implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) {
            try {
              return "{\\"found\\":\\"" + Class.forName(in.substring(9, 25)).getName() + "\\"}";
            } catch (ClassNotFoundException e) {
              return "{}";
            }
          }
          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
        }
        """;
    byte[] jar = TestPackages.jar(work, Map.of(entry, source), null, Map.of());
    Path silent = TestPackages.directory(work.resolve("silent"), jar, entry, "{}");
    Path declared = TestPackages.directory(work.resolve("declared"), jar, entry, "{\"code.dynamic\": [\"reflection\"]}");
    String input = "{\"text\":\"java.lang.String\"}";

    CliRunner.Outcome inspected = CliRunner.run("inspect", silent.toString());
    CliRunner.Outcome planned = CliRunner.run("plan", silent.toString(), "--input", input, "--executor", "in-process");

    for (CliRunner.Outcome refused : List.of(inspected, planned)) {
      assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
      assertThat(refused.err()).contains("EFFECT_UNDECLARED").contains("com/example/Loader -> java/lang/Class.forName (code.dynamic(reflection))");
    }
    assertThat(CliRunner.run("inspect", declared.toString()).out()).contains("code.dynamic(reflection)");
    assertThat(CliRunner.run("plan", declared.toString(), "--input", input, "--executor", "in-process").exitCode()).isZero();
    CliRunner.Outcome denied = CliRunner.run("run", declared.toString(), "--input", input, "--executor", "in-process", "--no-ledger");
    assertThat(denied.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(denied.out() + denied.err()).contains("POLICY_DENIED");
    CliRunner.Outcome approved = CliRunner.run("run", declared.toString(), "--input", input, "--executor", "in-process",
        "--policy", "permissive", "--approve", "code.dynamic=reflection", "--no-ledger", "--json");
    assertThat(approved.exitCode()).as(approved.out() + approved.err()).isZero();
    assertThat(approved.out()).contains("\"status\":\"SUCCEEDED\"").contains("\"output\":\"{\\\"found\\\":\\\"java.lang.String\\\"}\"");
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }
}
