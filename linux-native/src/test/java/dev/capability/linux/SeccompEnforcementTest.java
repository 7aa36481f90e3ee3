package dev.capability.linux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.testing.HostPrograms;
import dev.capability.testing.RequiredBackends;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Filters the kernel really applies: installed on a child JVM, and exported to bwrap's {@code --seccomp}. */
class SeccompEnforcementTest {
  @TempDir Path work;

  @BeforeEach
  void libseccomp() {
    LibSeccompGate.requireLibseccomp();
  }

  @Test
  void aFilterInstalledOnTheProcessHoldsEveryThreadIncludingThoseStartedBefore() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process child =
        new ProcessBuilder(java.toString(), "-cp", classPath, DenyMkdirProbe.class.getName(), work.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(child.waitFor()).as(output).isZero();
    assertThat(output)
        .contains("main thread mkdir: refused: Operation not permitted")
        .contains("earlier thread mkdir: refused: Operation not permitted")
        .contains("file: created");
    assertThat(work.resolve("from-main-thread")).doesNotExist();
    assertThat(work.resolve("from-earlier-thread")).doesNotExist();
    assertThat(work.resolve("plain-file")).isRegularFile();
  }

  @Test
  void bwrapAcceptsTheExportedProgramAndTheSandboxedCommandIsDenied() throws IOException, InterruptedException {
    Path program = work.resolve("filter.bpf");
    Files.write(program, SeccompFilter.builder().deny("mkdir", SeccompFilter.EPERM).deny("mkdirat", SeccompFilter.EPERM).build().toBpf());
    Path control = work.resolve("control.bpf");
    Files.write(control, SeccompFilter.builder().deny("getpriority", SeccompFilter.EPERM).build().toBpf());

    Result denied = mkdirUnderBwrap(program);
    Result allowed = mkdirUnderBwrap(control);

    assertThat(denied.status()).as(denied.output()).isNotZero();
    assertThat(denied.output()).contains("Operation not permitted");
    assertThat(allowed.status()).as("the same command under a filter without the rule: " + allowed.output()).isZero();
  }

  private record Result(int status, String output) {}

  /** Runs {@code mkdir} in a bwrap sandbox whose {@code --seccomp} descriptor is standard input, read from {@code program}. */
  private static Result mkdirUnderBwrap(Path program) throws IOException, InterruptedException {
    Path bwrap = bwrap();
    Path mkdir = HostPrograms.find("mkdir");
    Process sandbox =
        new ProcessBuilder(
                List.of(bwrap.toString(), "--ro-bind", "/", "/", "--dev", "/dev", "--tmpfs", "/tmp", "--die-with-parent", "--seccomp", "0", "--",
                    mkdir.toString(), "/tmp/made-in-sandbox"))
            .redirectInput(program.toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(sandbox.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int status = sandbox.waitFor();
    if (output.contains("No permissions to create new namespace") || output.contains("Creating new namespace failed")) {
      RequiredBackends.skipOrFail("bwrap cannot create namespaces here: " + output.strip());
    }
    return new Result(status, output);
  }

  private static Path bwrap() {
    return HostPrograms.lookup("bwrap")
        .orElseGet(() -> RequiredBackends.skipOrFail("bwrap is not installed in /usr/bin or /bin"));
  }
}
