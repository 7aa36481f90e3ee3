package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;

/** Shared real backends, pinned executables and specs for the sandbox tests. */
final class Sandboxes {
  private static BwrapBackend shared;

  private Sandboxes() {}

  /** One backend with default settings for the whole test JVM; probing costs real launches. */
  static synchronized BwrapBackend backend() {
    if (shared == null) {
      shared = BwrapBackend.create(BackendConfig.defaults());
    }
    return shared;
  }

  /** A backend with these settings; the caller closes it. */
  static BwrapBackend backend(Map<String, String> settings) {
    return BwrapBackend.create(new BackendConfig(settings));
  }

  /** A system program pinned by its canonical path, as the kernel would without a descriptor. */
  static PinnedExecutable system(String name) {
    for (String dir : new String[] {"/usr/bin/", "/bin/"}) {
      Path path = Path.of(dir + name);
      if (Files.isExecutable(path)) {
        try {
          return pinned(path.toRealPath());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    throw new IllegalStateException("no " + name + " in /usr/bin or /bin");
  }

  static PinnedExecutable pinned(Path file) {
    try {
      return new PinnedExecutable(
          file, Sha256.hex(Files.readAllBytes(file)), file.toString(), PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes an executable {@code /bin/sh} script readable by every uid and pins it. */
  static PinnedExecutable script(Path directory, String body) {
    try {
      Path file = Files.createTempFile(directory, "script-", ".sh");
      Files.writeString(file, "#!/bin/sh\n" + body + "\n");
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
}
