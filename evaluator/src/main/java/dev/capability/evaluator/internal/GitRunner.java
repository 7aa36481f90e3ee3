package dev.capability.evaluator.internal;

import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_GIT_FAILED;

import dev.capability.evaluator.EvaluationException;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the host's {@code git} on the repository by argv, never through a shell, for the few fixed
 * operations the evaluator needs (resolve a ref, add, list, remove and prune worktrees). The
 * environment is fixed: {@code PATH}, no system or global configuration, no prompts, the C
 * locale; hooks and the file-system monitor are switched off, and automatic garbage collection
 * too, so nothing but the named operation runs. Each run is bounded in time and output. A run is
 * waited for even when the calling thread is interrupted (a worktree half made or half removed
 * would be worse than the wait); the interrupt status is restored afterwards.
 */
final class GitRunner {
  /** How long one git operation may take before it is ended. */
  static final Duration TIMEOUT = Duration.ofMinutes(5);
  /** The most of either stream kept. */
  static final int MAX_OUTPUT_BYTES = 1 << 20;

  private static final List<String> DIRECTORIES = List.of("/usr/bin", "/bin");
  private static final Map<String, String> ENVIRONMENT = Map.of(
      "PATH", "/usr/bin:/bin",
      "GIT_CONFIG_NOSYSTEM", "1",
      "GIT_CONFIG_GLOBAL", "/dev/null",
      "GIT_TERMINAL_PROMPT", "0",
      "GIT_OPTIONAL_LOCKS", "0",
      "LC_ALL", "C");
  private static final List<String> SETTINGS = List.of(
      "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "gc.auto=0", "-c", "maintenance.auto=false");

  private final Path git;
  private final Path repository;

  GitRunner(Path repository) {
    this.repository = repository;
    this.git = DIRECTORIES.stream().map(d -> Path.of(d, "git"))
        .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst()
        .orElseThrow(() -> new EvaluationException(EVALUATION_GIT_FAILED, "the evaluator needs git in /usr/bin or /bin"));
  }

  /** What git printed and how it ended. */
  record Result(int exitCode, String stdout, String stderr) {
    boolean ok() {
      return exitCode == 0;
    }
  }

  /** Runs {@code git -C <repository> args...}. */
  Result run(String... args) {
    List<String> argv = new ArrayList<>();
    argv.add(git.toString());
    argv.addAll(SETTINGS);
    argv.add("-C");
    argv.add(repository.toString());
    argv.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(argv).directory(repository.toFile());
    builder.environment().clear();
    builder.environment().putAll(ENVIRONMENT);
    builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new EvaluationException(EVALUATION_GIT_FAILED, "cannot start " + git + ": " + e.getMessage(), e);
    }
    Drain stdout = new Drain(process.getInputStream());
    Drain stderr = new Drain(process.getErrorStream());
    stdout.start();
    stderr.start();
    boolean interrupted = false;
    try {
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (true) {
        try {
          if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            process.destroyForcibly();
            throw new EvaluationException(EVALUATION_GIT_FAILED, "git " + String.join(" ", args) + " did not finish within "
                + TIMEOUT.toSeconds() + " s and was ended");
          }
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      while (true) {
        try {
          stdout.join();
          stderr.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return new Result(process.exitValue(), stdout.text(), stderr.text());
  }

  /** Runs {@code git args...} and returns its standard output; a non-zero exit is {@code EVALUATION_GIT_FAILED}. */
  String check(String... args) {
    Result result = run(args);
    if (!result.ok()) {
      throw new EvaluationException(EVALUATION_GIT_FAILED, "git " + String.join(" ", args) + " failed (" + result.exitCode() + "): "
          + result.stderr().strip());
    }
    return result.stdout();
  }

  /** Reads a stream to its end, keeping the first {@link #MAX_OUTPUT_BYTES}. */
  private static final class Drain extends Thread {
    private final InputStream in;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

    Drain(InputStream in) {
      super("evaluator-git-output");
      setDaemon(true);
      this.in = in;
    }

    @Override
    public void run() {
      byte[] buffer = new byte[8192];
      try (in) {
        int read;
        while ((read = in.read(buffer)) >= 0) {
          int room = MAX_OUTPUT_BYTES - kept.size();
          if (room > 0) {
            kept.write(buffer, 0, Math.min(room, read));
          }
        }
      } catch (IOException e) {
        // The process ended and its pipe went with it; what was read is kept.
      }
    }

    String text() {
      return kept.toString(StandardCharsets.UTF_8);
    }
  }
}
