package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.DirectoryTrees;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * One probe sandbox, started through the launcher real runs use, with a writable root into which it
 * copies what it sees of itself: {@code cp /proc/self/status /proc/self/environ /proc/self/uid_map
 * /proc/self/mountinfo /proc/sys/kernel/hostname}. Who owns the copies on the host tells which uid
 * the sandbox really ran as.
 */
final class ProbeSandbox {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration SETTLE = Duration.ofSeconds(5);
  private static final int MAX_REASON = 400;

  private ProbeSandbox() {}

  /**
   * What one probe sandbox showed.
   *
   * @param seen what it saw of itself, when it ran
   * @param failure why it did not, otherwise
   */
  record Outcome(Optional<SandboxSelfReport> seen, String failure) {
    boolean succeeded() {
      return seen.isPresent();
    }

    SandboxSelfReport report() {
      return seen.orElseThrow();
    }
  }

  /** Runs one probe sandbox with {@code flags}; never throws for what the sandbox does. */
  static Outcome run(
      BwrapSettings settings,
      HostTools tools,
      SandboxIdentity identity,
      Optional<CgroupParent> cgroup,
      SandboxFlags flags,
      Path cp,
      Path base) {
    Path seen = base.resolve("seen-" + UUID.randomUUID());
    try (SandboxLauncher launcher =
        new SandboxLauncher(tools, identity, settings, flags, cgroup, base, SETTLE, Optional.empty())) {
      Files.createDirectory(
          seen, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
      Files.setPosixFilePermissions(seen, PosixFilePermissions.fromString("rwxr-xr-x"));
      if (identity.dropsRoot()) {
        Files.setAttribute(seen, "unix:uid", identity.uid(), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(seen, "unix:gid", identity.gid(), LinkOption.NOFOLLOW_LINKS);
      }
      LaunchSpec spec =
          LaunchSpec.builder(pinned(cp))
              .arguments(
                  List.of(
                      "/proc/self/status",
                      "/proc/self/environ",
                      "/proc/self/uid_map",
                      "/proc/self/mountinfo",
                      "/proc/sys/kernel/hostname",
                      seen + "/"))
              .workingDirectory(seen)
              .writableRoots(List.of(seen))
              .network(flags.networkNamespace() ? NetworkMode.NONE : NetworkMode.HOST)
              .timeout(PROBE_TIMEOUT)
              .terminationGrace(Duration.ZERO)
              .maxOutputBytes(1 << 16)
              .build();
      LaunchResult result = launcher.launch(spec);
      if (result.exitCode().orElse(-1) != 0 || result.timedOut()) {
        return new Outcome(
            Optional.empty(),
            "exit status "
                + (result.exitCode().isPresent() ? result.exitCode().getAsInt() : "unknown")
                + (result.timedOut() ? " (timed out)" : "")
                + ": "
                + shorten(result.stderr().text()));
      }
      Path status = seen.resolve("status");
      int owner = (Integer) Files.getAttribute(status, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      return new Outcome(
          Optional.of(
              SandboxSelfReport.parse(
                  read(status),
                  read(seen.resolve("environ")),
                  read(seen.resolve("uid_map")),
                  read(seen.resolve("mountinfo")),
                  read(seen.resolve("hostname")),
                  owner)),
          "");
    } catch (CapabilityException e) {
      return new Outcome(Optional.empty(), shorten(e.getMessage()));
    } catch (IOException e) {
      return new Outcome(
          Optional.empty(), "cannot read what the probe sandbox wrote: " + e.getMessage());
    } finally {
      deleteTree(seen);
    }
  }

  private static String read(Path file) throws IOException {
    if (Files.isSymbolicLink(file)) {
      throw new IOException(file + " is a symlink");
    }
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  private static PinnedExecutable pinned(Path file) {
    try {
      return new PinnedExecutable(
          file,
          Sha256.hex(Files.readAllBytes(file)),
          file.toString(),
          PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  static String shorten(String text) {
    String oneLine = text.strip().replace('\n', ' ');
    return oneLine.length() > MAX_REASON ? oneLine.substring(0, MAX_REASON) + "..." : oneLine;
  }

  /** Deletes a directory the probe made, without following symlinks a sandbox may have left. */
  static void deleteTree(Path directory) {
    try {
      DirectoryTrees.delete(directory);
    } catch (IOException e) {
      // A leftover private directory is harmless.
    }
  }
}
