package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process renames other bytes over the executable's path as fast as it can while the backend runs
 * it again and again, pinned the way the kernel pins it: hashed through a descriptor this JVM
 * holds, executed through {@code /proc/<pid>/fd/<n>}. Whatever ran must be what was hashed.
 */
class ExecutableSwapRaceTest {
  private static final int RUNS = 100;

  @TempDir Path tmp;

  @Test
  void theBytesThatRunAreAlwaysTheBytesThatWereHashed() throws Exception {
    Sandboxes.openDirectory(tmp);
    Path repo = Sandboxes.openDirectory(tmp.resolve("repo"));
    Path bin = Sandboxes.openDirectory(tmp.resolve("bin"));
    Path honest = executable(bin.resolve("honest"), "echo honest");
    Path evil = executable(bin.resolve("evil"), "echo evil");
    String honestSha = Sha256.hex(Files.readAllBytes(honest));
    String evilSha = Sha256.hex(Files.readAllBytes(evil));
    Path tool = bin.resolve("tool");
    Files.copy(honest, tool);
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    // A separate process, so that its descriptors never confuse finding the pinned one here.
    String loop =
        "while :; do cp -p \"$1\" \"$3.next\" && mv -f \"$3.next\" \"$3\";"
            + " cp -p \"$2\" \"$3.next\" && mv -f \"$3.next\" \"$3\"; done";
    Process swapper =
        new ProcessBuilder(
                "/bin/bash",
                "-c",
                loop,
                "swapper",
                honest.toString(),
                evil.toString(),
                tool.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    int honestRuns = 0;
    int evilRuns = 0;
    try (BackendGate gate = Sandboxes.gate()) {
      ExecutionBackend backend = gate.backend();
      for (int run = 0; run < RUNS; run++) {
        try (Pin pin = Pin.open(tool)) {
          LaunchResult result = backend.launch(Sandboxes.spec(pin.executable(), repo).build());
          String output = result.stdout().text();
          if (output.equals("honest\n")) {
            assertThat(pin.executable().sha256())
                .as("run %d printed honest", run)
                .isEqualTo(honestSha);
            honestRuns++;
          } else {
            assertThat(output).as("run %d: %s", run, result.stderr().text()).isEqualTo("evil\n");
            assertThat(pin.executable().sha256()).as("run %d printed evil", run).isEqualTo(evilSha);
            evilRuns++;
          }
        }
      }
    } finally {
      swapper.destroyForcibly().waitFor();
    }
    assertThat(honestRuns + evilRuns).isEqualTo(RUNS);
    assertThat(honestRuns).as("the swapper really raced the runs").isPositive();
    assertThat(evilRuns).as("the swapper really raced the runs").isPositive();
  }

  private static Path executable(Path file, String body) throws IOException {
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  /** The kernel's pinning: open, find the descriptor, hash through it. */
  private record Pin(PinnedExecutable executable, FileChannel channel) implements AutoCloseable {
    private static final Path SELF_FD = Path.of("/proc/self/fd");

    static Pin open(Path path) throws IOException {
      // Only this loop opens the tool in this JVM, so the one descriptor on it is the pin. (A
      // before/after diff would miss it: the listing's own descriptor number is reused.)
      FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
      List<String> fresh = new ArrayList<>();
      for (String fd : descriptors()) {
        if (target(fd).startsWith(path.toString())) {
          fresh.add(fd);
        }
      }
      if (fresh.size() != 1) {
        channel.close();
        throw new IllegalStateException("descriptors on " + path + ": " + fresh);
      }
      MessageDigest digest = Sha256.newDigest();
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      long position = 0;
      int read;
      while ((read = channel.read(buffer, position)) > 0) {
        position += read;
        buffer.flip();
        digest.update(buffer);
        buffer.clear();
      }
      String execPath = "/proc/" + ProcessHandle.current().pid() + "/fd/" + fresh.get(0);
      return new Pin(
          new PinnedExecutable(
              path, Sha256.hex(digest), execPath, PinnedExecutable.Pinning.PROC_FD),
          channel);
    }

    private static Set<String> descriptors() throws IOException {
      Set<String> fds = new HashSet<>();
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(SELF_FD)) {
        entries.forEach(e -> fds.add(e.getFileName().toString()));
      }
      return fds;
    }

    private static String target(String fd) {
      try {
        return Files.readSymbolicLink(SELF_FD.resolve(fd)).toString();
      } catch (IOException e) {
        return "";
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
