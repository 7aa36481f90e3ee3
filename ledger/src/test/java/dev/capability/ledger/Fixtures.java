package dev.capability.ledger;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/** Real execution results and attestations, built the way the kernel builds them. */
public final class Fixtures {
  private Fixtures() {}

  public static final String POLICY_HASH = Sha256.hex("policy".getBytes(StandardCharsets.UTF_8));

  /** A completed run of {@code argv} that exited {@code exitCode}, with {@code stdout}. */
  public static ExecutionResult completed(List<String> argv, int exitCode, String stdout) {
    CapturedOutput out = CapturedOutput.of(stdout.getBytes(StandardCharsets.UTF_8), false);
    CapturedOutput err = CapturedOutput.empty();
    Instant started = Instant.parse("2026-11-30T10:00:00.123Z");
    Decision decision = Decision.allow("operator", "executables." + argv.get(0));
    Attestation attestation = Attestation.builder()
        .kernelVersion("0.1.0-SNAPSHOT")
        .status(ExecutionStatus.COMPLETED)
        .argv(argv)
        .commandSpecHash(Sha256.hex(String.join("\0", argv).getBytes(StandardCharsets.UTF_8)))
        .decision(decision)
        .policyHash(POLICY_HASH)
        .policySource("file:/etc/capability/policy.json")
        .executable(new Attestation.Executable("/usr/bin/" + argv.get(0), Sha256.hex(argv.get(0).getBytes(StandardCharsets.UTF_8)), PinnedExecutable.Pinning.PROC_FD))
        .backend(new Attestation.Backend("process", Set.of(IsolationCapability.SESSION_TERMINATION),
            Attestation.Backend.Choice.NAMED, "named by the request"))
        .environment(new Attestation.Environment(List.of("HOME", "PATH"), List.of("LANG")))
        .network(NetworkMode.HOST)
        .projectWrites(ProjectWriteMode.READ_ONLY)
        .writeBoundaries(new Attestation.WriteBoundaries(List.of(), null, null, null))
        .stdout(Attestation.Stream.of(out))
        .stderr(Attestation.Stream.of(err))
        .startedAt(started)
        .finishedAt(started.plus(Duration.ofMillis(42)))
        .exitCode(exitCode)
        .build();
    return new ExecutionResult(ExecutionStatus.COMPLETED, decision, argv, OptionalInt.of(exitCode), out, err, attestation, null);
  }

  /** A denial of {@code argv} by the operator layer. */
  public static ExecutionResult denied(List<String> argv, String message) {
    Decision decision = Decision.deny("FLAG_NOT_ALLOWED", "operator", "executables.git.flags", 1, message);
    Instant at = Instant.parse("2026-11-30T11:00:00Z");
    Attestation attestation = Attestation.builder()
        .kernelVersion("0.1.0-SNAPSHOT")
        .status(ExecutionStatus.DENIED)
        .argv(argv)
        .commandSpecHash(Sha256.hex(String.join("\0", argv).getBytes(StandardCharsets.UTF_8)))
        .decision(decision)
        .policyHash(POLICY_HASH)
        .policySource("code")
        .network(NetworkMode.NONE)
        .projectWrites(ProjectWriteMode.READ_ONLY)
        .writeBoundaries(new Attestation.WriteBoundaries(List.of(), null, null, null))
        .startedAt(at)
        .finishedAt(at)
        .build();
    return new ExecutionResult(ExecutionStatus.DENIED, decision, argv, OptionalInt.empty(), CapturedOutput.empty(),
        CapturedOutput.empty(), attestation, message);
  }

  /** Options for a test ledger: checkpoints only by count and on close, so tests decide when they happen. */
  public static LedgerOptions options() {
    return LedgerOptions.builder().checkpointMaxDelay(null).build();
  }

  /** A plan body for the runtime's tables, with the id {@code id} and the fingerprint {@link #fingerprint}({@code id}). */
  public static Map<String, Object> plan(String id) {
    return Map.of("planId", id, "fingerprint", fingerprint(id), "capability", Map.of("name", "demo", "version", "1.0"),
        "effects", List.of("a", "b"));
  }

  /** The fingerprint of the plan {@link #plan}({@code id}). */
  public static String fingerprint(String id) {
    return Sha256.hex(id.getBytes(StandardCharsets.UTF_8));
  }

  /** A raw connection, foreign keys off, as an attacker with the sqlite3 shell would have. */
  public static Connection raw(Path db) throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + db);
  }
}
