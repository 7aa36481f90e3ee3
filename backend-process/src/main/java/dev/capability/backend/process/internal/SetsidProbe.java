package dev.capability.backend.process.internal;

import dev.capability.backend.support.ProcStat;
import dev.capability.linux.DescriptorSpawn;
import dev.capability.linux.NativeAccess;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds how commands can lead a session of their own. First choice: {@code posix_spawn} with
 * {@code POSIX_SPAWN_SETSID} (through {@code capability-linux-native}), checked by starting {@code
 * cat /proc/self/stat} that way once; it costs no second {@code execve}. Otherwise util-linux
 * {@code setsid} in the system directories, checked by running it once on {@code cat
 * /proc/self/stat}: it must make the command lead a new session <em>without forking</em>, since a
 * forking setsid would detach the command from the launcher, whose exit status, timeout and output
 * would then belong to setsid instead.
 *
 * <p>Only fixed absolute paths are considered, never a {@code PATH} lookup, so neither the
 * command's nor the JVM's environment chooses the binary.
 */
public final class SetsidProbe {
  /** Where setsid is looked for, in order. */
  public static final List<Path> SETSID_PATHS =
      List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));

  /** Where the harmless probe command is looked for, in order. */
  public static final List<Path> CAT_PATHS = List.of(Path.of("/usr/bin/cat"), Path.of("/bin/cat"));

  private static final long PROBE_TIMEOUT_SECONDS = 10;
  private static final int MAX_STAT_BYTES = 4096;

  private final boolean trySpawn;
  private final List<Path> setsidPaths;
  private final List<Path> catPaths;

  /** A probe of posix_spawn, then of setsid in the system directories. */
  public SetsidProbe() {
    this(true, SETSID_PATHS, CAT_PATHS);
  }

  /** A probe of setsid alone, at {@code setsidPaths}. */
  SetsidProbe(List<Path> setsidPaths, List<Path> catPaths) {
    this(false, setsidPaths, catPaths);
  }

  private SetsidProbe(boolean trySpawn, List<Path> setsidPaths, List<Path> catPaths) {
    this.trySpawn = trySpawn;
    this.setsidPaths = List.copyOf(Objects.requireNonNull(setsidPaths, "setsidPaths"));
    this.catPaths = List.copyOf(Objects.requireNonNull(catPaths, "catPaths"));
  }

  /** Runs the probe; never throws, a failure becomes an unavailable result with its reason. */
  public SessionSupport probe() {
    String spawnProblem = "";
    if (trySpawn) {
      SessionSupport spawned = probeSpawn();
      if (spawned.available()) {
        return spawned;
      }
      spawnProblem = spawned.explanation() + "; ";
    }
    SessionSupport fromSetsid = probeSetsid();
    return spawnProblem.isEmpty()
        ? fromSetsid
        : new SessionSupport(
            fromSetsid.setsid(), false, spawnProblem + fromSetsid.explanation());
  }

  private SessionSupport probeSpawn() {
    Optional<String> problem = NativeAccess.problem();
    if (problem.isPresent()) {
      return SessionSupport.unavailable("posix_spawn is not available: " + problem.get());
    }
    Optional<Path> cat = firstExecutable(catPaths);
    if (cat.isEmpty()) {
      return SessionSupport.unavailable(
          "posix_spawn sessions cannot be verified: no cat in " + catPaths);
    }
    try {
      Process process =
          DescriptorSpawn.start(
              new DescriptorSpawn.Request(
                      List.of(cat.get().toString(), "/proc/self/stat"),
                      Map.of(),
                      Path.of("/"),
                      null,
                      List.of())
                  .inNewSession());
      Optional<String> failure = sessionFailure(process, "posix_spawn with POSIX_SPAWN_SETSID");
      if (failure.isPresent()) {
        return SessionSupport.unavailable(failure.get());
      }
      return SessionSupport.spawned(
          "posix_spawn with POSIX_SPAWN_SETSID verified: each command leads its own session"
              + " from its first instruction, so the whole session is ended on timeout and"
              + " leftovers are ended after exit");
    } catch (IOException | RuntimeException e) {
      return SessionSupport.unavailable(
          "posix_spawn sessions could not be verified: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return SessionSupport.unavailable("probing posix_spawn sessions was interrupted");
    }
  }

  private SessionSupport probeSetsid() {
    Optional<Path> setsid = firstExecutable(setsidPaths);
    if (setsid.isEmpty()) {
      return SessionSupport.unavailable(
          "no setsid in "
              + setsidPaths
              + " (util-linux): commands share this JVM's session and "
              + "only their descendants are ended");
    }
    Optional<Path> cat = firstExecutable(catPaths);
    if (cat.isEmpty()) {
      return SessionSupport.unavailable(
          "setsid found at " + setsid.get() + " but it cannot be verified: no cat in " + catPaths);
    }
    try {
      return verify(setsid.get(), cat.get());
    } catch (IOException | RuntimeException e) {
      return SessionSupport.unavailable(
          "setsid at " + setsid.get() + " could not be verified: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return SessionSupport.unavailable("probing setsid at " + setsid.get() + " was interrupted");
    }
  }

  private static SessionSupport verify(Path setsid, Path cat)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(setsid.toString(), "--", cat.toString(), "/proc/self/stat")
            .directory(new File("/"))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    Optional<String> failure = sessionFailure(builder.start(), "setsid at " + setsid);
    if (failure.isPresent()) {
      return SessionSupport.unavailable(failure.get());
    }
    return SessionSupport.verified(
        setsid,
        "setsid at "
            + setsid
            + " verified: each command leads its own session, so the whole "
            + "session is ended on timeout and leftovers are ended after exit");
  }

  /**
   * Why {@code process}, which runs {@code cat /proc/self/stat}, shows that {@code how} does not
   * make the started process lead a new session of its own; empty when it does.
   */
  private static Optional<String> sessionFailure(Process process, String how)
      throws IOException, InterruptedException {
    byte[] stat;
    try (InputStream out = process.getInputStream()) {
      stat = out.readNBytes(MAX_STAT_BYTES);
    }
    if (!process.waitFor(PROBE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return Optional.of(how + " did not finish the probe in time");
    }
    if (process.exitValue() != 0) {
      return Optional.of(how + " failed the probe with exit status " + process.exitValue());
    }
    ProcStat seen = ProcStat.parse(new String(stat, StandardCharsets.ISO_8859_1));
    if (seen.pid() != process.pid()) {
      return Optional.of(
          how
              + " forked (the command ran as pid "
              + seen.pid()
              + ", not "
              + process.pid()
              + "), which would detach commands from the launcher");
    }
    if (seen.session() != seen.pid()) {
      return Optional.of(
          how
              + " did not start a new session (session "
              + seen.session()
              + " for pid "
              + seen.pid()
              + ")");
    }
    return Optional.empty();
  }

  private static Optional<Path> firstExecutable(List<Path> candidates) {
    return candidates.stream()
        .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
        .findFirst();
  }
}
