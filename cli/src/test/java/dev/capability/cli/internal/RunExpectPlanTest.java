package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.CapabilityPlans;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person approves the plan {@code capability plan} printed, in one process, and {@code
 * capability run --expect-plan} runs exactly that plan in another, or refuses with {@code
 * PLAN_DRIFT}.
 */
class RunExpectPlanTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HELLO = "../examples/capabilities/hello";
  private static final String INPUT = "{\"name\":\"Ada\"}";
  @TempDir Path work;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  /** {@code capability plan ARGS --json > plan.json}, then the fingerprint read back from the file. */
  private String approvedFingerprint(String... args) throws IOException {
    List<String> plan = new ArrayList<>(List.of("plan"));
    plan.addAll(List.of(args));
    plan.add("--json");
    CliRunner.Outcome planned = CliRunner.run(plan.toArray(String[]::new));
    assertThat(planned.exitCode()).as(planned.err()).isZero();
    Path file = work.resolve("plan.json");
    Files.writeString(file, planned.out());
    JsonNode printed = JSON.readTree(Files.readString(file));
    String fingerprint = printed.get("fingerprint").asText();
    // The printed plan is a plan: rebuilt from its JSON, it has the printed fingerprint.
    assertThat(CapabilityPlans.fromJson(JSON.writeValueAsString(printed.get("plan"))).fingerprint()).isEqualTo(fingerprint);
    return fingerprint;
  }

  private CliRunner.Outcome run(String fingerprint, String... args) {
    List<String> run = new ArrayList<>(List.of("run"));
    run.addAll(List.of(args));
    run.addAll(List.of("--expect-plan", fingerprint));
    return CliRunner.run(run.toArray(String[]::new));
  }

  private int ledgerRecords(Path repo) throws IOException {
    if (!Files.exists(repo.resolve(".capability/state.db"))) {
      return 0;
    }
    return JSON.readTree(CliRunner.run("ledger", "list", "--repo", repo.toString(), "--json").out()).get("records").size();
  }

  @Test
  void runsThePlanItWasToldToExpectAndRecordsThatPlan() throws IOException {
    Path repo = Files.createDirectory(work.resolve("repo"));
    String fingerprint = approvedFingerprint(HELLO, "--input", INPUT, "--executor", "in-process", "--repo", repo.toString());

    CliRunner.Outcome ran = run(fingerprint, HELLO, "--input", INPUT, "--executor", "in-process", "--repo", repo.toString(), "--json");

    assertThat(ran.exitCode()).as(ran.out() + ran.err()).isZero();
    JsonNode receipt = JSON.readTree(ran.out());
    assertThat(receipt.get("fingerprint").asText()).isEqualTo(fingerprint);
    assertThat(receipt.get("status").asText()).isEqualTo("SUCCEEDED");
    CliRunner.Outcome recordedPlan = CliRunner.run("ledger", "show", "1", "--repo", repo.toString(), "--json");
    assertThat(recordedPlan.out()).contains("\"kind\":\"plan\"").contains(fingerprint);
  }

  @Test
  void refusesWithPlanDriftWhenTheInputChangedAndRunsAndRecordsNothing() throws IOException {
    Path repo = Files.createDirectory(work.resolve("repo"));
    String fingerprint = approvedFingerprint(HELLO, "--input", INPUT, "--executor", "in-process", "--repo", repo.toString());

    CliRunner.Outcome plain = run(fingerprint, HELLO, "--input", "{\"name\":\"Eve\"}", "--executor", "in-process", "--repo", repo.toString());
    CliRunner.Outcome json = run(fingerprint, HELLO, "--input", "{\"name\":\"Eve\"}", "--executor", "in-process", "--repo", repo.toString(), "--json");

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(plain.out()).doesNotContain("Hello");
    assertThat(plain.err()).startsWith("capability: PLAN_DRIFT: the plan is not the one approved: approved " + fingerprint + ", now ");
    assertThat(json.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(JSON.readTree(json.out()).at("/error/code").asText()).isEqualTo("PLAN_DRIFT");
    assertThat(ledgerRecords(repo)).isZero();
  }

  @Test
  void refusesWithPlanDriftWhenThePackagePolicyOrExecutorChanged() throws IOException {
    Path pkg = copyOfHello();
    String fingerprint = approvedFingerprint(pkg.toString(), "--input", INPUT, "--executor", "in-process");

    CliRunner.Outcome otherPolicy = run(fingerprint, pkg.toString(), "--input", INPUT, "--executor", "in-process", "--policy", "permissive", "--no-ledger");
    Files.writeString(pkg.resolve("NOTES.txt"), "added after the plan was approved\n");
    CliRunner.Outcome otherBytes = run(fingerprint, pkg.toString(), "--input", INPUT, "--executor", "in-process", "--no-ledger");

    for (CliRunner.Outcome refused : List.of(otherPolicy, otherBytes)) {
      assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
      assertThat(refused.err()).contains("PLAN_DRIFT").contains("approved " + fingerprint);
    }
  }

  @Test
  void aValueThatIsNoFingerprintIsRefusedAsSuch() {
    CliRunner.Outcome refused = run("5f0c", HELLO, "--input", INPUT, "--executor", "in-process", "--no-ledger");

    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(refused.err()).contains("PLAN_INVALID: \"5f0c\" is not a plan fingerprint");
  }

  @Test
  void runsTheExpectedPlanInTheSandboxedChildJvm() throws IOException {
    BWRAP.backend();
    // The sandbox's uid must reach the repository.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path repo = Files.createDirectory(work.resolve("repo"));
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x"));
    String fingerprint = approvedFingerprint(HELLO, "--input", INPUT, "--backend", "bwrap", "--repo", repo.toString());

    CliRunner.Outcome ran = run(fingerprint, HELLO, "--input", INPUT, "--backend", "bwrap", "--repo", repo.toString(), "--no-ledger", "--json");
    CliRunner.Outcome drifted = run(fingerprint, HELLO, "--input", "{\"name\":\"Eve\"}", "--backend", "bwrap", "--repo", repo.toString(), "--no-ledger");

    assertThat(ran.exitCode()).as(ran.out() + ran.err()).isZero();
    assertThat(ran.out()).contains("\"fingerprint\":\"" + fingerprint + "\"").contains("\"boundaryApplied\":true").contains("Hello, Ada!");
    assertThat(drifted.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(drifted.err()).contains("PLAN_DRIFT");
  }

  private Path copyOfHello() throws IOException {
    Path source = Path.of(HELLO);
    Path target = work.resolve("hello");
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Files.copy(file, target.resolve(source.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    return target;
  }
}
