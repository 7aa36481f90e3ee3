package dev.capability.backend.process.internal;

import dev.capability.backend.support.ProcStat;
import dev.capability.backend.support.ProcTable;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

/** Real scripts, pinned executables and /proc scans for the backend tests. */
final class CommandFixtures {
  /** Every test command carries this variable, so its processes can be found in /proc. */
  static final String MARKER_VARIABLE = "CK_TEST_MARKER";

  private static final ProcessBackend SESSION_BACKEND =
      new ProcessBackend(new SetsidProbe().probe());

  private CommandFixtures() {}

  /** A backend over this machine's verified setsid. */
  static ProcessBackend sessionBackend() {
    return SESSION_BACKEND;
  }

  /** A fresh marker value. */
  static String newMarker() {
    return UUID.randomUUID().toString();
  }

  /** Writes an executable {@code /bin/sh} script and pins it by its path. */
  static PinnedExecutable script(Path directory, String body) {
    try {
      Path file = Files.createTempFile(directory, "command-", ".sh");
      Files.writeString(file, "#!/bin/sh\n" + body + "\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
      return pinned(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Pins an existing file by its own path, as the kernel would with its path as exec path. */
  static PinnedExecutable pinned(Path file) {
    return pinned(file, file.toString());
  }

  static PinnedExecutable pinned(Path file, String execPath) {
    try {
      return new PinnedExecutable(
          file, Sha256.hex(Files.readAllBytes(file)), execPath, PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An executable that is never read here, for exec paths that cannot run. */
  static PinnedExecutable unhashed(String execPath) {
    return new PinnedExecutable(
        Path.of(execPath), "0".repeat(64), execPath, PinnedExecutable.Pinning.PROC_FD);
  }

  /** A spec with a short grace, a generous timeout, a search path and the given marker. */
  static LaunchSpec.Builder spec(
      PinnedExecutable executable, Path workingDirectory, String marker) {
    return LaunchSpec.builder(executable)
        .workingDirectory(workingDirectory)
        .environment(Map.of("PATH", "/usr/bin:/bin", MARKER_VARIABLE, marker))
        .network(NetworkMode.HOST)
        .timeout(Duration.ofSeconds(30))
        .terminationGrace(Duration.ofMillis(300));
  }

  /** Live processes (not zombies) whose environment holds {@code marker}. */
  static List<ProcStat> processesWithMarker(String marker) {
    byte[] needle = (MARKER_VARIABLE + "=" + marker).getBytes(StandardCharsets.UTF_8);
    List<ProcStat> found = new ArrayList<>();
    for (ProcStat process : ProcTable.snapshot()) {
      if (!process.exited() && environContains(process.pid(), needle)) {
        found.add(process);
      }
    }
    return found;
  }

  /** Splits NUL-terminated strings, as in /proc/pid/cmdline. */
  static List<String> nulSeparated(byte[] bytes) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        parts.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    return parts;
  }

  /** Kills a process the test itself started or let escape, and waits until it is gone. */
  static void killAndAwait(long pid) {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    while (ProcTable.read(pid).filter(p -> !p.exited()).isPresent()) {
      LockSupport.parkNanos(10_000_000L);
    }
  }

  private static boolean environContains(long pid, byte[] needle) {
    byte[] environ;
    try {
      environ = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
    } catch (IOException e) {
      return false;
    }
    outer:
    for (int i = 0; i + needle.length <= environ.length; i++) {
      if (i > 0 && environ[i - 1] != 0) {
        continue;
      }
      for (int j = 0; j < needle.length; j++) {
        if (environ[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i + needle.length == environ.length || environ[i + needle.length] == 0;
    }
    return false;
  }

  static byte[] repeat(char c, int count) {
    byte[] bytes = new byte[count];
    Arrays.fill(bytes, (byte) c);
    return bytes;
  }
}
