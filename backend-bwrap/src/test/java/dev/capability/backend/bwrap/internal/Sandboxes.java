package dev.capability.backend.bwrap.internal;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.support.ProcTable;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.testing.HostPrograms;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Shared real backends, pinned executables and specs for the sandbox tests. */
final class Sandboxes {
  private Sandboxes() {}

  /**
   * A gate for a default backend: a test that asks it for the backend is skipped with the probe's
   * reason where bwrap cannot run, or fails instead under {@code CAPABILITY_REQUIRE_BACKENDS=1}.
   * The caller closes it.
   */
  static BackendGate gate() {
    return BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  }

  /** The identity sandboxes of a default backend run as. */
  static SandboxIdentity identity() {
    return SandboxIdentity.forThisJvm(BwrapSettings.defaults());
  }

  /** True when this test JVM runs as root, so sandboxes drop to an unprivileged uid. */
  static boolean jvmIsRoot() {
    return SandboxIdentity.JvmCredentials.current().effectiveUid() == 0;
  }

  /** A backend with these settings; the caller closes it. */
  static BwrapBackend backend(Map<String, String> settings) {
    return BwrapBackend.create(new BackendConfig(settings));
  }

  /** A system program pinned by its canonical path, as the kernel would without a descriptor. */
  static PinnedExecutable system(String name) {
    try {
      return pinned(HostPrograms.find(name).toRealPath());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static PinnedExecutable pinned(Path file) {
    try {
      return new PinnedExecutable(
          file,
          Sha256.hex(Files.readAllBytes(file)),
          file.toString(),
          PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes an executable {@code /bin/sh} script readable by every uid and pins it. */
  static PinnedExecutable script(Path directory, String body) {
    return script(directory, "/bin/sh", body);
  }

  /** Writes an executable script for {@code interpreter}, readable by every uid, and pins it. */
  static PinnedExecutable script(Path directory, String interpreter, String body) {
    try {
      Path file = Files.createTempFile(directory, "script-", ".sh");
      Files.writeString(file, "#!" + interpreter + "\n" + body + "\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
      return pinned(file.toRealPath());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A spec running {@code executable} in {@code repository} (read-only), no network. */
  static LaunchSpec.Builder spec(PinnedExecutable executable, Path repository) {
    return LaunchSpec.builder(executable)
        .repository(repository)
        .workingDirectory(repository)
        .environment(Map.of("PATH", "/usr/bin:/bin"))
        .network(NetworkMode.NONE)
        .timeout(Duration.ofSeconds(30))
        .terminationGrace(Duration.ofMillis(300));
  }

  /** A directory every uid may enter and read, as a repository must be for a dropped uid. */
  static Path openDirectory(Path path) {
    try {
      Files.createDirectories(path);
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
      return path.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A writable root the sandbox's uid may write. */
  static Path writableBy(Path path, SandboxIdentity identity) {
    try {
      Path dir = openDirectory(path);
      if (identity.dropsRoot()) {
        Files.setAttribute(dir, "unix:uid", identity.uid());
        Files.setAttribute(dir, "unix:gid", identity.gid());
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every test sandbox carries this variable, so its processes can be found from the host. */
  static final String MARKER = "CK_BWRAP_MARKER";

  static String newMarker() {
    return UUID.randomUUID().toString();
  }

  /** Host pids of live processes whose environment holds {@code MARKER=marker}. */
  static List<Long> processesWithMarker(String marker) {
    byte[] needle = (MARKER + "=" + marker).getBytes(StandardCharsets.UTF_8);
    List<Long> found = new ArrayList<>();
    try (var entries =
        Files.newDirectoryStream(
            Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        boolean live = ProcTable.read(pid).filter(p -> !p.exited()).isPresent();
        if (live && contains(entry.resolve("environ"), needle)) {
          found.add(pid);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return found;
  }

  /** True when the NUL-separated file holds {@code needle} as one whole entry. */
  static boolean contains(Path nulSeparated, byte[] needle) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(nulSeparated);
    } catch (IOException e) {
      return false;
    }
    return split(bytes).stream()
        .anyMatch(s -> s.equals(new String(needle, StandardCharsets.UTF_8)));
  }

  /** Splits NUL-terminated strings, as in /proc/pid/cmdline or {@code env -0} output. */
  static List<String> split(byte[] bytes) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        parts.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    if (start < bytes.length) {
      parts.add(new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8));
    }
    return parts;
  }
}
