package dev.capability.integrations.agentsandbox;

import dev.capability.integrations.agentsandbox.internal.KernelExec;
import dev.capability.integrations.agentsandbox.internal.WorkDirectoryFiles;
import dev.capability.kernel.core.CommandKernel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springaicommunity.sandbox.ExecResult;
import org.springaicommunity.sandbox.ExecSpec;
import org.springaicommunity.sandbox.Sandbox;
import org.springaicommunity.sandbox.SandboxFiles;

/**
 * The agent-sandbox {@link Sandbox} on a {@link CommandKernel}: every {@link #exec} is one {@code
 * kernel.execute} in the work directory (the request's repository), so the operator's policy, fixed
 * by the host that built the kernel, decides each command; a model or agent only proposes.
 *
 * <pre>{@code
 * try (Sandbox sandbox = KernelSandbox.builder(kernel, workDirectory).build()) {
 *   ExecResult result = sandbox.exec(ExecSpec.of("git", "status", "--short"));
 * }
 * }</pre>
 *
 * <ul>
 *   <li>An argv is passed as it is. A {@linkplain ExecSpec.Builder#shellCommand shell command} is
 *       split without a shell (the kernel's {@code CommandStrings}); one that needs a shell (pipes,
 *       redirections, {@code &&}, globs, expansions) is refused with the parser's reason and never
 *       run.
 *   <li>The per-exec environment is the request environment: each name must be listed in the
 *       policy's {@code environment.request}, or the whole exec is refused ({@code
 *       ENVIRONMENT_NOT_ALLOWED}); names the kernel never takes from a request are refused too.
 *   <li>A denial, a shell command, a timeout or another bound the kernel enforced is a {@link
 *       KernelSandboxException}; a command that ran and exited is an {@link ExecResult}, whatever
 *       its exit code.
 *   <li>{@link #files()} works inside the work directory only and never follows a symbolic link.
 * </ul>
 *
 * <p>Closing the sandbox neither closes the kernel (the host owns it) nor deletes the work
 * directory. Interactive processes ({@link #startInteractive}) are not supported: the kernel runs
 * each command to its end under its bounds.
 */
public final class KernelSandbox implements Sandbox {
  private final CommandKernel kernel;
  private final Path workDirectory;
  private final @Nullable String backendId;
  private final WorkDirectoryFiles files;
  private volatile boolean closed;

  private KernelSandbox(Builder builder, Path workDirectory) {
    this.kernel = builder.kernel;
    this.workDirectory = workDirectory;
    this.backendId = builder.backendId;
    this.files = new WorkDirectoryFiles(this, workDirectory);
  }

  /**
   * A builder for a sandbox that runs commands through {@code kernel} in {@code workDirectory}, an
   * existing directory (its real path becomes {@link #workDir()}).
   */
  public static Builder builder(CommandKernel kernel, Path workDirectory) {
    return new Builder(kernel, workDirectory);
  }

  /**
   * Runs {@code spec} through the kernel in the work directory and waits for it.
   *
   * @throws KernelSandboxException when the kernel denied it, it needs a shell, the kernel ended it
   *     (timeout and other bounds) or could not launch it
   * @throws IllegalStateException when this sandbox is closed
   */
  @Override
  public ExecResult exec(ExecSpec spec) {
    Objects.requireNonNull(spec, "spec");
    requireOpen();
    return KernelExec.run(kernel, workDirectory, backendId, spec);
  }

  /** The real path of the work directory: the repository and working directory of every command. */
  @Override
  public Path workDir() {
    return workDirectory;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  /** Marks this sandbox closed; later calls to {@link #exec} and {@link #files()} operations fail. */
  @Override
  public void close() {
    closed = true;
  }

  /** File operations inside the work directory; paths are relative, and symbolic links are never followed. */
  @Override
  public SandboxFiles files() {
    return files;
  }

  /** Always false: the work directory is the host's, and stays when the sandbox closes. */
  @Override
  public boolean shouldCleanupOnClose() {
    return false;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the sandbox on " + workDirectory + " is closed");
    }
  }

  @Override
  public String toString() {
    return "KernelSandbox[workDir=" + workDirectory + ", backend=" + (backendId == null ? "chosen by the kernel" : backendId)
        + ", closed=" + closed + "]";
  }

  /** Builds a {@link KernelSandbox}. By default the kernel chooses the backend of each command. */
  public static final class Builder {
    private final CommandKernel kernel;
    private final Path workDirectory;
    private @Nullable String backendId;

    private Builder(CommandKernel kernel, Path workDirectory) {
      this.kernel = Objects.requireNonNull(kernel, "kernel");
      this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
    }

    /** Runs every command on exactly this backend ({@code ExecutionRequest.backend}), for example {@code bwrap}. */
    public Builder backend(String backendId) {
      this.backendId = Objects.requireNonNull(backendId, "backendId");
      return this;
    }

    /**
     * The sandbox.
     *
     * @throws IllegalArgumentException when the work directory is not an existing directory
     */
    public KernelSandbox build() {
      if (!Files.isDirectory(workDirectory, LinkOption.NOFOLLOW_LINKS)) {
        throw new IllegalArgumentException("the work directory must be an existing directory, not a symbolic link: " + workDirectory);
      }
      try {
        return new KernelSandbox(this, workDirectory.toRealPath());
      } catch (IOException e) {
        throw new IllegalArgumentException("the work directory cannot be resolved: " + workDirectory + ": " + e.getMessage(), e);
      }
    }
  }
}
