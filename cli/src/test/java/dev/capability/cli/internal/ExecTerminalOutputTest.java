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

/** A command's output cannot drive the operator's terminal: escape sequences are shown, not passed, unless --raw. */
class ExecTerminalOutputTest {
  private static final String CLIPBOARD_WRITE = "\u001b]52;c;cm0gLXJmIH4K\u0007";
  private static final String RETITLE = "\u001b]0;all tests passed\u0007";
  private static final String CLEAR_SCREEN = "\u001b[2J";

  @TempDir Path tmp;
  private Path repo;
  private Path policy;
  private Path printer;

  @BeforeEach
  void fixtures() throws Exception {
    repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    printer = Files.createDirectories(tmp.resolve("bin")).resolve("printer");
    // The attack payload: what a proposed command prints, on both streams.
    Files.writeString(printer, "#!/bin/sh\nprintf '\\033]52;c;cm0gLXJmIH4K\\007\\033[2Jok\\n'\n"
        + "printf '\\033]0;all tests passed\\007fine\\n' >&2\n");
    Files.setPosixFilePermissions(printer, PosixFilePermissions.fromString("rwxr-xr-x"));
    printer = printer.toRealPath();
    policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(policy, """
        {"version": 1, "network": "host", "projectWrites": "read-only",
         "executables": {"printer": {"path": "%s", "exact": [[]]}}}
        """.formatted(printer));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
  }

  private CliRunner.Outcome exec(String... options) {
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("exec", "--policy", policy.toString(), "--repo", repo.toString(), "--backend", "process",
        "--", printer.toString()));
    return CliRunner.run(args.toArray(String[]::new));
  }

  @Test
  void escapeSequencesAreShownOnBothStreams() {
    CliRunner.Outcome outcome = exec();

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out()).isEqualTo("\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b[2Jok\n");
    assertThat(outcome.err()).startsWith("\\x1b]0;all tests passed\\x07fine\n");
    assertThat(outcome.out() + outcome.err()).doesNotContain("\u001b").doesNotContain("\u0007");
  }

  @Test
  void rawPassesTheBytesAsTheCommandWroteThem() {
    CliRunner.Outcome outcome = exec("--raw");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out()).isEqualTo(CLIPBOARD_WRITE + CLEAR_SCREEN + "ok\n");
    assertThat(outcome.err()).startsWith(RETITLE + "fine\n");
  }

  @Test
  void jsonOutputStaysValidJsonWithTheExactText() throws Exception {
    List<String> args = new ArrayList<>(List.of("exec", "--json", "--policy", policy.toString(), "--repo", repo.toString(),
        "--backend", "process", "--", printer.toString()));
    CliRunner.Outcome outcome = CliRunner.run(args.toArray(String[]::new));

    JsonNode json = new ObjectMapper().readTree(outcome.out());
    assertThat(json.get("stdout").asText()).isEqualTo(CLIPBOARD_WRITE + CLEAR_SCREEN + "ok\n");
    assertThat(json.get("stderr").asText()).isEqualTo(RETITLE + "fine\n");
    assertThat(outcome.out()).doesNotContain("\u001b");
  }
}
