package dev.capability.cli.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.discovery.DiscoveryCodes;
import dev.capability.evaluator.EvaluatorCodes;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.api.authority.AuthorityCodes;
import dev.capability.kernel.api.policy.PolicyCodes;
import dev.capability.ledger.LedgerCodes;
import dev.capability.mcp.McpCodes;
import dev.capability.openapi.OpenApiCodes;
import dev.capability.workflow.AssumptionCodes;
import dev.capability.workflow.WorkflowCodes;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.ParameterException;

/**
 * The one table of exit codes, {@code docs/cli.md} documents it; every code means one thing.
 * Exceptions reach it through picocli: {@link #COMMANDS} maps them for every command but
 * {@code exec}, {@link #EXEC} for {@code exec}, whose small codes are the command's own.
 */
public final class ExitCodes {
  private ExitCodes() {}

  public static final int OK = 0;
  /**
   * The kernel refused the command: {@code parse} refused it, {@code check} denied it, or its input
   * is not UTF-8; {@code evaluate}: some command did not pass on some candidate (it failed, timed
   * out or was denied).
   */
  public static final int DENIED = 1;
  /** Bad command-line usage. */
  public static final int USAGE = 2;
  /** A configuration error outside {@code exec}: policy, layers, repository, ledger, policy file to write, no index read. */
  public static final int CONFIGURATION = 3;
  /** {@code run}: the capability ran and failed. */
  public static final int CAPABILITY_FAILED = 4;
  /** {@code inspect}, {@code plan}, {@code run}, {@code acquire}, {@code import-openapi}: refused; nothing ran. */
  public static final int CAPABILITY_REFUSED = 5;
  /** {@code ledger verify}, {@code show}, {@code export}: the evidence does not verify. */
  public static final int NOT_INTACT = 6;
  /** {@code phase verify}: the verification ran and the phase's evidence did not pass. */
  public static final int VERIFICATION_FAILED = 7;
  /** An unexpected failure inside the CLI: a bug to report. */
  public static final int INTERNAL_ERROR = 70;
  /**
   * exec: the command ran and the audit recorded writes outside its write scope, or the egress
   * proxy of its filtered network refused a connection attempt, or (status {@code
   * WORKSPACE_REFUSED}) the writable roots a remote backend returned were refused or not returned;
   * its own exit code is in the stderr line and in the attestation. Wins over every code of a
   * command that ran.
   */
  public static final int WRITE_VIOLATION = 123;
  /** exec: the command was ended by its time, output or memory bound. */
  public static final int BOUND_HIT = 124;
  /** exec: the kernel refused the command, or its configuration is unusable. */
  public static final int KERNEL_REFUSED = 125;
  /** exec: isolation unavailable, not executable, or could not be launched; elsewhere: no backend or daemon to run under. */
  public static final int CANNOT_EXECUTE = 126;
  /** exec: the executable was not found. */
  public static final int NOT_FOUND = 127;

  /** Every module's code constants, and the exit code a command other than {@code exec} gives for them. */
  static final Map<Class<?>, Integer> CODE_FAMILIES = Map.ofEntries(
      Map.entry(CliCodes.class, CONFIGURATION),
      Map.entry(PolicyCodes.class, CONFIGURATION),
      Map.entry(AuthorityCodes.class, CONFIGURATION),
      Map.entry(LedgerCodes.class, CONFIGURATION),
      Map.entry(DiscoveryCodes.class, CONFIGURATION),
      Map.entry(AssumptionCodes.class, CAPABILITY_REFUSED),
      Map.entry(McpCodes.class, CONFIGURATION),
      Map.entry(CapabilityCodes.class, CAPABILITY_REFUSED),
      Map.entry(AcquisitionCodes.class, CAPABILITY_REFUSED),
      Map.entry(OpenApiCodes.class, CAPABILITY_REFUSED),
      Map.entry(WorkflowCodes.class, CAPABILITY_REFUSED),
      Map.entry(EvaluatorCodes.class, CONFIGURATION));

  /** The codes whose exit code is not their family's. */
  private static final Map<String, Integer> EXCEPTIONS = Map.of(
      CliCodes.USAGE, USAGE,
      EvaluatorCodes.EVALUATION_PARALLELISM_INVALID, USAGE,
      CliCodes.INPUT_NOT_UTF8, DENIED,
      ShellSyntaxException.CODE, DENIED,
      LedgerCodes.LEDGER_NOT_INTACT, NOT_INTACT,
      CapabilityCodes.ISOLATION_UNAVAILABLE, CANNOT_EXECUTE,
      NetworkFilterUnavailableException.CODE, CANNOT_EXECUTE);

  private static final Map<String, Integer> BY_CODE = byCode();

  /** How picocli maps an exception a command other than {@code exec} raised. */
  static final IExitCodeExceptionMapper COMMANDS = new Mapper(false);

  /** How picocli maps an exception {@code exec} raised before it launched anything. */
  static final IExitCodeExceptionMapper EXEC = new Mapper(true);

  /**
   * {@link #forException} or {@link #forExecException} as picocli's mapper. A class, not a method
   * reference: making a lambda's class links picocli's interface (class-file version 49) when the
   * launchers write the CLI's class data archive, and the JVM then leaves the interface and every
   * class implementing it out of the archive (docs/cli.md, "Start-up").
   */
  private record Mapper(boolean exec) implements IExitCodeExceptionMapper {
    @Override
    public int getExitCode(Throwable exception) {
      return exec ? forExecException(exception) : forException(exception);
    }
  }

  /** The exit code of a command other than {@code exec} for a refusal or error with this stable code. */
  public static int forCode(String code) {
    return BY_CODE.getOrDefault(code, CONFIGURATION);
  }

  /** The exit code of a command other than {@code exec} that raised {@code e}. */
  public static int forException(Throwable e) {
    if (e instanceof BackendUnavailableException || e instanceof NetworkFilterUnavailableException) {
      return CANNOT_EXECUTE;
    }
    if (e instanceof CapabilityException capabilityException) {
      return forCode(capabilityException.code());
    }
    return usage(e) ? USAGE : INTERNAL_ERROR;
  }

  /** The exit code of {@code exec} for an exception raised before launch. */
  public static int forExecException(Throwable e) {
    if (e instanceof BackendUnavailableException || e instanceof NetworkFilterUnavailableException) {
      return CANNOT_EXECUTE;
    }
    if (e instanceof CapabilityException) {
      return KERNEL_REFUSED;
    }
    return usage(e) ? USAGE : INTERNAL_ERROR;
  }

  /**
   * A malformed command line, which picocli's own handler reports and maps through the mapper too,
   * or a value the command line let through but the command cannot take.
   */
  private static boolean usage(Throwable e) {
    return e instanceof ParameterException || e instanceof IllegalArgumentException;
  }

  /** The exit status of {@code capability run} for {@code receipt}. */
  public static int forReceipt(ExecutionReceipt receipt) {
    return switch (receipt.outcome()) {
      case SUCCEEDED -> OK;
      case FAILED -> CAPABILITY_FAILED;
      case REFUSED -> forCode(receipt.code());
    };
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
      case WORKSPACE_REFUSED -> WRITE_VIOLATION;
      case DENIED -> switch (result.decision().code()) {
        case PolicyCodes.EXECUTABLE_NOT_FOUND -> NOT_FOUND;
        case PolicyCodes.EXECUTABLE_NOT_EXECUTABLE -> CANNOT_EXECUTE;
        default -> KERNEL_REFUSED;
      };
    };
  }

  /** The stable codes a class declares: its public static final String constants. */
  static List<String> constants(Class<?> family) {
    return Arrays.stream(family.getFields())
        .filter(f -> Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers()) && f.getType() == String.class)
        .map(ExitCodes::value)
        .toList();
  }

  private static String value(Field field) {
    try {
      return (String) field.get(null);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("a public constant is not readable: " + field, e);
    }
  }

  private static Map<String, Integer> byCode() {
    Map<String, Integer> byCode = new HashMap<>();
    CODE_FAMILIES.forEach((family, exit) -> constants(family).forEach(code -> {
      Integer previous = byCode.put(code, exit);
      if (previous != null && !previous.equals(exit)) {
        throw new IllegalStateException("the code " + code + " is in two families with different exit codes");
      }
    }));
    byCode.putAll(EXCEPTIONS);
    return Map.copyOf(byCode);
  }
}
