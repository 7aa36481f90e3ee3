package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command or child JVM the plain process backend launches runs as the CLI's own user, and such a
 * process can attach to a JVM of that user and load an agent into it. {@code bin/capability} starts
 * the CLI's JVM so that it refuses: here the real CLI runs a command under the process backend with
 * the JVM options taken from that script, and {@code jcmd}, as a process of the same user, tries to
 * attach to it.
 */
class AttachMechanismTest {
  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
  private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");
  @TempDir Path tmp;
  private Path policy;
  private Path sleeper;

  @BeforeEach
  void commandThatKeepsTheCliBusy() throws IOException {
    Assumptions.assumeTrue(Files.isExecutable(JCMD), "this Java runtime has no jcmd to attack with: " + JCMD);
    sleeper = Files.createDirectories(tmp.resolve("bin")).resolve("sleeper");
    Files.writeString(sleeper, "#!/bin/sh\nsleep 30\n");
    Files.setPosixFilePermissions(sleeper, PosixFilePermissions.fromString("rwxr-xr-x"));
    policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(
        policy,
        "{\"version\":1,\"network\":\"host\",\"executables\":{\"sleeper\":{\"path\":\"%s\",\"exact\":[[]]}}}"
            .formatted(sleeper.toRealPath()));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
  }

  /** The fixed JVM options between {@code "$java_bin"} and {@code -jar} on the script's exec line. */
  static List<String> scriptJvmOptions() throws IOException {
    for (String line : Files.readAllLines(Path.of("..", "bin", "capability"), StandardCharsets.UTF_8)) {
      List<String> words = Arrays.asList(line.trim().split("\\s+"));
      if (words.size() > 2 && words.get(0).equals("exec") && words.get(1).equals("\"$java_bin\"")) {
        // The words the script computes (the short-command options, "${...}") are not fixed options.
        return words.subList(2, words.indexOf("-jar")).stream().filter(word -> !word.startsWith("$")).toList();
      }
    }
    throw new AssertionError("bin/capability has no exec \"$java_bin\" ... -jar line");
  }

  private String attachTo(List<String> jvmOptions) throws Exception {
    List<String> argv = new ArrayList<>(List.of(JAVA.toString()));
    argv.addAll(jvmOptions);
    argv.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.capability.cli.Main",
        "exec", "--backend", "process", "--policy", policy.toString(), "--", sleeper.toString()));
    Process cli = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(tmp.resolve("cli.log").toFile()).start();
    try {
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      // The command has started once the CLI's JVM has a descendant: by then the JVM is fully up.
      while (cli.descendants().findAny().isEmpty()) {
        assertThat(cli.isAlive()).as(() -> "the CLI ended early: " + log()).isTrue();
        assertThat(Instant.now()).as("the CLI never started its command").isBefore(deadline);
        Thread.sleep(50);
      }
      Process jcmd = new ProcessBuilder(JCMD.toString(), Long.toString(cli.pid()), "VM.version").redirectErrorStream(true).start();
      assertThat(jcmd.waitFor(30, TimeUnit.SECONDS)).as("jcmd ended").isTrue();
      return "exit " + jcmd.exitValue() + ": " + new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      cli.descendants().forEach(ProcessHandle::destroyForcibly);
      cli.destroyForcibly();
      cli.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private String log() {
    try {
      return Files.readString(tmp.resolve("cli.log"));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Test
  void theScriptStartsTheCliSoThatAProcessOfTheSameUserCannotAttach() throws Exception {
    List<String> options = scriptJvmOptions();
    assertThat(options).contains("-XX:+DisableAttachMechanism");

    assertThat(attachTo(options)).startsWith("exit 1").contains("does not support the attach mechanism");
  }

  @Test
  void withoutThoseOptionsTheSameAttackSucceeds() throws Exception {
    assertThat(attachTo(List.of())).startsWith("exit 0").contains("JDK");
  }
}
