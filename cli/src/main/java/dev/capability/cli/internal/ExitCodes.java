package dev.capability.cli.internal;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;

/** The one table of exit codes; {@code docs/cli.md} documents it. */
public final class ExitCodes {
  private ExitCodes() {}

  public static final int OK = 0;
  /** parse refused the command, or check denied it. */
  public static final int REFUSED = 1;
  /** Bad command-line usage. */
  public static final int USAGE = 2;
  /** A configuration error (policy file refused or invalid, bad repository) outside {@code exec}. */
  public static final int CONFIGURATION = 3;
  /**
   * exec: the command ran and the audit recorded writes outside its write scope; its own exit
   * code is in the stderr line and in the attestation. Wins over every code of a command that ran.
   */
  public static final int WRITE_VIOLATION = 123;
  /** exec: the command was ended by its time, output or memory bound. */
  public static final int BOUND_HIT = 124;
  /** exec: the kernel refused the command, or its configuration is unusable. */
  public static final int KERNEL_REFUSED = 125;
  /** exec: isolation unavailable, not executable, or could not be launched. */
  public static final int CANNOT_EXECUTE = 126;
  /** exec: the executable was not found. */
  public static final int NOT_FOUND = 127;

  /** {@code run}: the capability ran and failed. */
  public static final int CAPABILITY_FAILED = 1;
  /** {@code inspect}, {@code plan}, {@code run}: refused by inspection or policy. */
  public static final int CAPABILITY_REFUSED = 3;

  /** The exit status of {@code capability run} for {@code receipt}. */
  public static int forReceipt(ExecutionReceipt receipt) {
    return switch (receipt.outcome()) {
      case SUCCEEDED -> OK;
      case FAILED -> CAPABILITY_FAILED;
      case REFUSED -> receipt.code().equals(CapabilityCodes.ISOLATION_UNAVAILABLE) ? CANNOT_EXECUTE : CAPABILITY_REFUSED;
    };
  }

  /** The exit status of a capability command that could not plan or run. */
  public static int forCapability(CapabilityException e) {
    return e.code().equals(CapabilityCodes.ISOLATION_UNAVAILABLE) ? CANNOT_EXECUTE : CAPABILITY_REFUSED;
  }

  /** The exit code of {@code exec} for a result. */
  public static int forExec(ExecutionResult result) {
    if (result.status() != ExecutionStatus.DENIED && !result.attestation().violations().isEmpty()) {
      return WRITE_VIOLATION;
    }
    return switch (result.status()) {
      case COMPLETED -> result.exitCode().orElse(CANNOT_EXECUTE);
      case TIMED_OUT, OUTPUT_LIMIT, MEMORY_LIMIT, PROCESS_LIMIT, FILE_SIZE_LIMIT, WRITE_LIMIT -> BOUND_HIT;
      case LAUNCH_FAILED -> CANNOT_EXECUTE;
      case DENIED -> switch (result.decision().code()) {
        case "EXECUTABLE_NOT_FOUND" -> NOT_FOUND;
        case "EXECUTABLE_NOT_EXECUTABLE" -> CANNOT_EXECUTE;
        default -> KERNEL_REFUSED;
      };
    };
  }

  /** The exit code of {@code exec} for an exception raised before launch. */
  public static int forExec(CapabilityException e) {
    return e instanceof BackendUnavailableException ? CANNOT_EXECUTE : KERNEL_REFUSED;
  }
}
