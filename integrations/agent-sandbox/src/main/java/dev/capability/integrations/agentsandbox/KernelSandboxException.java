package dev.capability.integrations.agentsandbox;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionResult;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springaicommunity.sandbox.SandboxException;

/**
 * A {@link KernelSandbox} refused or could not finish what was asked. The SPI reports failures as
 * {@link SandboxException}, so this is one, with the project's stable {@link #code()}:
 *
 * <ul>
 *   <li>a denial by the kernel carries the decision's own code (for example {@code
 *       EXECUTABLE_NOT_ALLOWED} or {@code ENVIRONMENT_NOT_ALLOWED}) and the {@link #decision()};
 *   <li>a shell command that needs a shell carries {@value #SHELL_SYNTAX} and the parser's reason;
 *   <li>a run the kernel ended (timeout, output, memory, process, file-size or write limit) or could
 *       not launch carries the status's name (for example {@value #TIMED_OUT}) and the {@link
 *       #result()}; a timeout's cause is the SPI's {@link org.springaicommunity.sandbox.TimeoutException};
 *   <li>a file operation outside the work directory or through a symbolic link carries one of the
 *       {@code PATH_*} codes; an error of the kernel itself carries its {@code CapabilityException}
 *       code.
 * </ul>
 */
public final class KernelSandboxException extends SandboxException {
  private static final long serialVersionUID = 1L;

  /** A shell command needs a shell (a pipe, a redirection, {@code &&}, a glob, ...): nothing ran. */
  public static final String SHELL_SYNTAX = "SHELL_SYNTAX";
  /** The run passed its time bound and the kernel ended its whole process tree. */
  public static final String TIMED_OUT = "TIMED_OUT";
  /** A path is absolute, holds a {@code ..} segment or a NUL character, or names the work directory where a file is needed. */
  public static final String PATH_INVALID = "PATH_INVALID";
  /** A path is, or passes through, a symbolic link: file operations never follow one. */
  public static final String PATH_SYMBOLIC_LINK = "PATH_SYMBOLIC_LINK";
  /** A path does not exist in the work directory. */
  public static final String PATH_NOT_FOUND = "PATH_NOT_FOUND";
  /** A path that must be a directory is not one. */
  public static final String PATH_NOT_DIRECTORY = "PATH_NOT_DIRECTORY";
  /** A path that must be a regular file is a directory, a FIFO, a socket or a device. */
  public static final String PATH_NOT_REGULAR_FILE = "PATH_NOT_REGULAR_FILE";
  /** A directory to delete without {@code recursive} is not empty. */
  public static final String DIRECTORY_NOT_EMPTY = "DIRECTORY_NOT_EMPTY";
  /** Reading or writing the work directory failed. */
  public static final String FILE_IO = "FILE_IO";

  private final String code;
  private final transient @Nullable Decision decision;
  private final transient @Nullable ExecutionResult result;

  /** A failure with {@code code}, without a decision or result. */
  public KernelSandboxException(String code, String message, @Nullable Throwable cause) {
    this(code, message, cause, null, null);
  }

  private KernelSandboxException(
      String code, String message, @Nullable Throwable cause, @Nullable Decision decision, @Nullable ExecutionResult result) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
    this.decision = decision;
    this.result = result;
  }

  /** The kernel denied {@code result}'s command: the code, layer, rule and reason are its decision's. */
  public static KernelSandboxException denied(ExecutionResult result) {
    Decision decision = result.decision();
    String message = String.join(" ", result.argv()) + ": refused by the " + decision.layer()
        + " layer, rule " + decision.rule() + " (" + decision.code() + "): " + decision.message();
    return new KernelSandboxException(decision.code(), message, null, decision, result);
  }

  /** The kernel ended {@code result}'s run, or could not start it; {@code cause} is the SPI's timeout when it timed out. */
  public static KernelSandboxException ended(ExecutionResult result, String message, @Nullable Throwable cause) {
    return new KernelSandboxException(result.status().name(), message, cause, result.decision(), result);
  }

  /** The stable, machine-readable code, for example {@code ENVIRONMENT_NOT_ALLOWED} or {@code PATH_SYMBOLIC_LINK}. */
  public String code() {
    return code;
  }

  /** The kernel's decision, when a command reached the kernel. */
  public Optional<Decision> decision() {
    return Optional.ofNullable(decision);
  }

  /** The kernel's outcome (with its attestation and whatever output was kept), when a command reached the kernel. */
  public Optional<ExecutionResult> result() {
    return Optional.ofNullable(result);
  }
}
