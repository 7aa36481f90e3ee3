package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that hits the write budget or the file size limit ends with its own status, through the
 * kernel and the CLI: the exit code for a bound, one line on stderr, the attestation, and the ledger.
 */
class ExecResourceBoundsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Path repo;
  private Path policy;
  private Path writer;

  @BeforeEach
  void fixtures() throws Exception {
    repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Files.createDirectories(repo.resolve("out"));
    writer = Files.createDirectories(tmp.resolve("bin")).resolve("writer");
    // budget: 200 MiB into the writable root in 8 MiB files, then wait; file: one file past the 10 MiB limit.
    Files.writeString(writer, """
        #!/bin/sh
        case "$1" in
          budget) i=0; while [ $i -lt 25 ]; do head -c 8388608 /dev/zero > out/f$i; i=$((i+1)); done; exec sleep 120;;
          file) exec head -c 20971520 /dev/zero > out/big;;
        esac
        """);
    Files.setPosixFilePermissions(writer, PosixFilePermissions.fromString("rwxr-xr-x"));
    writer = writer.toRealPath();
    policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(policy, """
        {"version": 1, "network": "host", "projectWrites": "scoped", "writeScopes": ["out/**"],
         "timeoutMillis": 300000, "maxFileBytes": 10485760, "maxWriteBytes": 52428800,
         "executables": {"writer": {"path": "%s", "exact": [["budget"], ["file"]]}}}
        """.formatted(writer));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
  }

  private CliRunner.Outcome exec(String... argv) {
    List<String> args = new ArrayList<>(List.of("exec", "--policy", policy.toString(), "--repo", repo.toString(),
        "--backend", "process"));
    args.addAll(List.of(argv));
    return CliRunner.run(args.toArray(String[]::new));
  }

  private List<String> recordedStatuses() throws Exception {
    JsonNode records = JSON.readTree(CliRunner.run("ledger", "list", "--repo", repo.toString(), "--json",
        "--kind", "execution").out()).get("records");
    List<String> statuses = new ArrayList<>();
    records.forEach(record -> statuses.add(record.get("status").asText()));
    return statuses;
  }

  @Test
  void writingPastTheBudgetIsTheWriteLimitStatusABoundHitAndRecorded() throws Exception {
    CliRunner.Outcome outcome = exec("--", writer.toString(), "budget");

    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(ExitCodes.BOUND_HIT);
    assertThat(outcome.err()).contains("capability: write budget reached");
    assertThat(recordedStatuses()).containsExactly("WRITE_LIMIT");
  }

  @Test
  void aFilePastTheLimitIsTheFileSizeLimitStatusInTheJsonAttestation() throws Exception {
    CliRunner.Outcome outcome = exec("--json", "--", writer.toString(), "file");

    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(ExitCodes.BOUND_HIT);
    JsonNode result = JSON.readTree(outcome.out());
    assertThat(result.get("status").asText()).isEqualTo("FILE_SIZE_LIMIT");
    assertThat(result.get("exitCode").asInt()).isEqualTo(153);
    assertThat(result.at("/attestation/status").asText()).isEqualTo("FILE_SIZE_LIMIT");
    assertThat(recordedStatuses()).containsExactly("FILE_SIZE_LIMIT");
  }
}
