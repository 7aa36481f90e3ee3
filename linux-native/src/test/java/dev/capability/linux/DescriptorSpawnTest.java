package dev.capability.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.testing.HostPrograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescriptorSpawnTest {
  @TempDir Path temp;

  private static String program(String name) {
    return HostPrograms.find(name).toString();
  }

  private static String stdout(Process process) throws Exception {
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void theChildGetsTheHandedDescriptorsAsThreeOnwardsAndNoOthers() throws Exception {
    Path root = temp.toRealPath();
    Path first = Files.createDirectory(root.resolve("first"));
    Path second = Files.writeString(root.resolve("second"), "x");
    try (PinnedPath a = PinnedPath.open(first);
        PinnedPath b = PinnedPath.open(second)) {
      Process child =
          DescriptorSpawn.start(
              new DescriptorSpawn.Request(
                  List.of(program("ls"), "-l", "/proc/self/fd/"),
                  Map.of(),
                  root,
                  null,
                  List.of(a.descriptor(), b.descriptor())));
      Map<Integer, String> open = new java.util.TreeMap<>();
      java.util.regex.Pattern entry = java.util.regex.Pattern.compile(" (\\d+) -> (.*)$");
      for (String line : stdout(child).lines().toList()) {
        java.util.regex.Matcher m = entry.matcher(line);
        if (m.find()) {
          open.put(Integer.parseInt(m.group(1)), m.group(2));
        }
      }
      assertThat(child.exitValue()).isZero();
      // 0 to 2 are standard streams; 5 is ls's own reading of the directory. Nothing else of
      // this JVM's reaches the child.
      assertThat(open.keySet()).containsExactly(0, 1, 2, 3, 4, 5);
      assertThat(open).containsEntry(3, first.toString()).containsEntry(4, second.toString());
      assertThat(open.get(5)).startsWith("/proc/");
    }
  }

  @Test
  void runsWithExactlyTheGivenEnvironmentDirectoryAndStdin() throws Exception {
    Path root = temp.toRealPath();
    Process env =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("env")), Map.of("ONLY", "this"), root, null, List.of()));
    assertThat(stdout(env)).isEqualTo("ONLY=this\n");
    Process pwd =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("pwd")), Map.of(), root, null, List.of()));
    assertThat(stdout(pwd)).isEqualTo(root + "\n");
    Path input = Files.writeString(root.resolve("input"), "from the file");
    Process cat =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("cat")), Map.of(), root, input, List.of()));
    assertThat(stdout(cat)).isEqualTo("from the file");
    Process noInput =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("cat")), Map.of(), root, null, List.of()));
    assertThat(stdout(noInput)).isEmpty();
  }

  @Test
  void signalsAreUnblockedAndAtTheirDefaults() throws Exception {
    Process status =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("grep"), "-E", "^Sig(Blk|Ign)", "/proc/self/status"),
                Map.of(),
                Path.of("/"),
                null,
                List.of()));
    Map<String, Long> masks = new java.util.HashMap<>();
    stdout(status)
        .lines()
        .map(line -> line.split(":\\s+"))
        .forEach(parts -> masks.put(parts[0], Long.parseUnsignedLong(parts[1], 16)));
    assertThat(masks.get("SigBlk")).isZero();
    // The C library keeps its own two internal real-time signals (32 and 33) ignored; every
    // standard signal is at its default.
    assertThat(masks.get("SigIgn") & 0x7FFF_FFFFL).isZero();
  }

  @Test
  void reportsExitCodesAndSignalsTheWayTheJdkDoes() throws Exception {
    Process failing =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("false")), Map.of(), Path.of("/"), null, List.of()));
    assertThat(failing.waitFor()).isEqualTo(1);
    assertThat(failing.onExit().get(30, TimeUnit.SECONDS).exitValue()).isEqualTo(1);

    Process sleeping =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("sleep"), "60"), Map.of(), Path.of("/"), null, List.of()));
    assertThat(sleeping.isAlive()).isTrue();
    assertThat(sleeping.waitFor(50, TimeUnit.MILLISECONDS)).isFalse();
    assertThatThrownBy(sleeping::exitValue).isInstanceOf(IllegalThreadStateException.class);
    sleeping.destroy();
    assertThat(sleeping.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(sleeping.exitValue()).isEqualTo(128 + 15);
    assertThat(sleeping.isAlive()).isFalse();
    // After reaping, a signal is never sent: the pid may already be another process's.
    sleeping.destroyForcibly();

    Process killed =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("sleep"), "60"), Map.of(), Path.of("/"), null, List.of()));
    killed.destroyForcibly();
    assertThat(killed.waitFor()).isEqualTo(128 + 9);
  }

  @Test
  void aProgramThatCannotStartIsAnErrorNamingIt() throws IOException {
    Path missing = temp.toRealPath().resolve("no-such-program");
    assertThatThrownBy(
            () ->
                DescriptorSpawn.start(
                    new DescriptorSpawn.Request(
                        List.of(missing.toString()),
                        Map.of(),
                        Path.of("/"),
                        null,
                        List.of())))
        .isInstanceOfSatisfying(
            NativeCallException.class,
            e -> assertThat(e.code()).isEqualTo(NativeCallException.SPAWN_FAILED))
        .hasMessageContaining(missing.toString());
  }

  @Test
  void aClosedHandedDescriptorIsAnError() {
    assertThatThrownBy(
            () ->
                DescriptorSpawn.start(
                    new DescriptorSpawn.Request(
                        List.of(program("true")),
                        Map.of(),
                        Path.of("/"),
                        null,
                        List.of(100_000))))
        .isInstanceOfSatisfying(
            NativeCallException.class,
            e -> assertThat(e.code()).isEqualTo(NativeCallException.SPAWN_FAILED));
  }

  @Test
  void refusesARelativeProgramPath() {
    assertThatThrownBy(
            () ->
                new DescriptorSpawn.Request(
                    List.of("true"), Map.of(), Path.of("/"), null, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aChildInANewSessionLeadsItAndIsStillThisJvmsDirectChild() throws Exception {
    Process child =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                    List.of(program("cat"), "/proc/self/stat"),
                    Map.of(),
                    Path.of("/"),
                    null,
                    List.of())
                .inNewSession());
    String stat = stdout(child);
    // Fields after the command name: state, ppid, pgrp, session.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    assertThat(Long.parseLong(stat.substring(0, stat.indexOf(' ')))).isEqualTo(child.pid());
    assertThat(Long.parseLong(fields[1])).isEqualTo(ProcessHandle.current().pid());
    assertThat(Long.parseLong(fields[2])).isEqualTo(child.pid());
    assertThat(Long.parseLong(fields[3])).isEqualTo(child.pid());
  }

  @Test
  void withoutANewSessionTheChildSharesThisJvmsSession() throws Exception {
    Process child =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                List.of(program("cat"), "/proc/self/stat"),
                Map.of(),
                Path.of("/"),
                null,
                List.of()));
    String stat = stdout(child);
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    String own = Files.readString(Path.of("/proc/self/stat"));
    String[] ownFields = own.substring(own.lastIndexOf(')') + 2).split(" ");
    assertThat(fields[3]).isEqualTo(ownFields[3]);
  }

  @Test
  void standardInputCanBeAPipeWrittenThroughTheProcess() throws Exception {
    Process cat =
        DescriptorSpawn.start(
            new DescriptorSpawn.Request(
                    List.of(program("cat")), Map.of(), Path.of("/"), null, List.of())
                .withStdinPipe());
    try (var in = cat.getOutputStream()) {
      in.write("through the pipe".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(stdout(cat)).isEqualTo("through the pipe");
    assertThat(cat.exitValue()).isZero();
  }

  @Test
  void standardInputIsEitherAFileOrAPipe() {
    assertThatThrownBy(
            () ->
                new DescriptorSpawn.Request(
                    List.of("/bin/cat"),
                    Map.of(),
                    Path.of("/"),
                    Optional.of(Path.of("/dev/null")),
                    List.of(),
                    true,
                    false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("either a file or a pipe");
  }
}
