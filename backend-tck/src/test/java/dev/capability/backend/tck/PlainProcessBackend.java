package dev.capability.backend.tck;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A deliberately small backend for testing the suite itself: plain child processes of this JVM, no
 * session, no isolation; on timeout or output limit it KILLs the command and its descendants. It
 * advertises whatever it is told to and can be given flaws, so tests can check that the suite
 * catches a backend that lies or breaks the baseline.
 */
final class PlainProcessBackend implements ExecutionBackend {

  /** A way to break the baseline contract on purpose. */
  enum Flaw {
    NONE,
    /** The command inherits this JVM's environment under the spec's. */
    INHERITS_ENVIRONMENT,
    /** argv is joined with spaces and run by {@code /bin/sh -c}. */
    RUNS_THROUGH_A_SHELL
  }

  private static final long POLL_MILLIS = 20;
  private static final long DRAIN_MILLIS = 2000;

  private final Set<IsolationCapability> claimed;
  private final Flaw flaw;

  PlainProcessBackend(Set<IsolationCapability> claimed, Flaw flaw) {
    this.claimed = Set.copyOf(claimed);
    this.flaw = flaw;
  }

  /** An honest backend: it claims nothing. */
  static PlainProcessBackend honest() {
    return new PlainProcessBackend(Set.of(), Flaw.NONE);
  }

  /**
   * A backend that claims every isolation capability and delivers none. Not {@code
   * REMOTE_WORKSPACE}, which is no isolation claim but a way of running: the suite would then
   * require a shipped workspace on every spec instead of attacking the claims.
   */
  static PlainProcessBackend claimingEverything() {
    return new PlainProcessBackend(
        EnumSet.complementOf(EnumSet.of(IsolationCapability.REMOTE_WORKSPACE)), Flaw.NONE);
  }

  @Override
  public String id() {
    return "plain";
  }

  @Override
  public Set<IsolationCapability> capabilities() {
    return claimed;
  }

  @Override
  public LaunchResult launch(LaunchSpec spec) {
    if (!claimed.containsAll(spec.requiredCapabilities())) {
      throw new BackendUnavailableException(
          BackendUnavailableException.ISOLATION_UNAVAILABLE, "plain backend lacks capabilities");
    }
    if (spec.network() == NetworkMode.FILTERED
        && !claimed.contains(IsolationCapability.FILTERED_EGRESS)) {
      throw new NetworkFilterUnavailableException("plain backend has no egress relay");
    }
    if (!Files.isDirectory(spec.workingDirectory())) {
      throw new LaunchFailedException("no working directory " + spec.workingDirectory());
    }
    ProcessBuilder builder = new ProcessBuilder(command(spec));
    if (flaw != Flaw.INHERITS_ENVIRONMENT) {
      builder.environment().clear();
    }
    builder.environment().putAll(spec.environment());
    builder.directory(spec.workingDirectory().toFile());
    builder.redirectInput(
        spec.stdin().isPresent()
            ? ProcessBuilder.Redirect.PIPE
            : ProcessBuilder.Redirect.from(new File("/dev/null")));
    Instant startedAt = Instant.now();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new LaunchFailedException("cannot start " + spec.executable().path(), e);
    }
    spec.stdin().ifPresent(input -> daemon(() -> feed(process.getOutputStream(), input)));
    AtomicBoolean limitHit = new AtomicBoolean();
    Capture out = new Capture(process.getInputStream(), spec.maxOutputBytes(), limitHit);
    Capture err = new Capture(process.getErrorStream(), spec.maxOutputBytes(), limitHit);
    Thread outReader = daemon(out::run);
    Thread errReader = daemon(err::run);

    long deadline = System.nanoTime() + spec.timeout().toNanos();
    boolean timedOut = false;
    try {
      while (!process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS) && !limitHit.get()) {
        if (System.nanoTime() - deadline >= 0) {
          timedOut = true;
          break;
        }
      }
      boolean ended = timedOut || limitHit.get();
      if (ended) {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
      }
      OptionalInt exit =
          process.waitFor(DRAIN_MILLIS, TimeUnit.MILLISECONDS)
              ? OptionalInt.of(process.exitValue())
              : OptionalInt.empty();
      outReader.join(DRAIN_MILLIS);
      errReader.join(DRAIN_MILLIS);
      return new LaunchResult(
          exit,
          timedOut,
          limitHit.get(),
          out.captured(),
          err.captured(),
          startedAt,
          Instant.now(),
          ended ? "descendants-kill" : "none");
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new LaunchFailedException("interrupted", e);
    }
  }

  private List<String> command(LaunchSpec spec) {
    List<String> argv = new ArrayList<>();
    argv.add(spec.executable().execPath());
    argv.addAll(spec.arguments());
    return flaw == Flaw.RUNS_THROUGH_A_SHELL
        ? List.of("/bin/sh", "-c", String.join(" ", argv))
        : argv;
  }

  private static void feed(OutputStream stdin, byte[] input) {
    try (stdin) {
      stdin.write(input);
    } catch (IOException e) {
      // The command exited without reading everything.
    }
  }

  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task, "plain-backend-io");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Reads a stream to its end, keeping at most the limit. */
  private static final class Capture implements Runnable {
    private final InputStream source;
    private final long limit;
    private final AtomicBoolean limitHit;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private boolean truncated;

    Capture(InputStream source, long limit, AtomicBoolean limitHit) {
      this.source = source;
      this.limit = limit;
      this.limitHit = limitHit;
    }

    @Override
    public void run() {
      byte[] chunk = new byte[8192];
      try {
        int n;
        while ((n = source.read(chunk)) != -1) {
          synchronized (this) {
            int keep = (int) Math.min(n, limit - kept.size());
            kept.write(chunk, 0, keep);
            if (keep < n) {
              truncated = true;
              limitHit.set(true);
            }
          }
        }
      } catch (IOException e) {
        synchronized (this) {
          truncated = true;
        }
      }
    }

    synchronized CapturedOutput captured() {
      return CapturedOutput.of(kept.toByteArray(), truncated);
    }
  }
}
