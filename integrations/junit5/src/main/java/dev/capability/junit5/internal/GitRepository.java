package dev.capability.junit5.internal;

import dev.capability.junit5.SandboxCodes;
import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Makes a test's repository with the real {@code git}, run by argv (never a shell) with no system
 * or user configuration and a fixed identity, so nothing of the developer's setup leaks in.
 */
final class GitRepository {
  /** How long one {@code git} run may take before the setup gives up. */
  private static final long TIMEOUT_SECONDS = 60;

  private GitRepository() {}

  /** {@code git init} in {@code repository} (an empty directory) and an empty initial commit; {@code scratch} holds git's output. */
  static void create(Path repository, Path scratch) {
    git(repository, scratch, "init", "--quiet", "--initial-branch=main");
    git(repository, scratch, "-c", "user.name=capability-junit5", "-c", "user.email=capability-junit5@localhost",
        "-c", "commit.gpgsign=false", "commit", "--quiet", "--allow-empty", "--no-verify", "-m", "initial commit");
  }

  private static void git(Path repository, Path scratch, String... args) {
    List<String> argv = new ArrayList<>();
    argv.add("git");
    argv.addAll(List.of(args));
    Path output = scratch.resolve("git-output.txt");
    ProcessBuilder builder = new ProcessBuilder(argv).directory(repository.toFile())
        .redirectErrorStream(true).redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    Map<String, String> environment = builder.environment();
    String path = environment.getOrDefault("PATH", "/usr/bin:/bin");
    environment.clear();
    environment.put("PATH", path);
    environment.put("HOME", scratch.toString());
    environment.put("GIT_CONFIG_NOSYSTEM", "1");
    environment.put("GIT_CONFIG_GLOBAL", "/dev/null");
    environment.put("LC_ALL", "C");
    try {
      Process process = builder.start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw failed(argv, "did not finish in " + TIMEOUT_SECONDS + " seconds");
      }
      if (process.exitValue() != 0) {
        throw failed(argv, "exited with " + process.exitValue() + ": " + Files.readString(output, StandardCharsets.UTF_8).strip());
      }
    } catch (IOException e) {
      throw new CapabilityException(SandboxCodes.SANDBOX_SETUP_FAILED,
          "cannot run " + String.join(" ", argv) + " to make the test's repository (is git installed?): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failed(argv, "was interrupted");
    }
  }

  private static CapabilityException failed(List<String> argv, String what) {
    return new CapabilityException(SandboxCodes.SANDBOX_SETUP_FAILED,
        String.join(" ", argv) + " (making the test's repository) " + what);
  }
}
