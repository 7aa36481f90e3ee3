package dev.capability.cli.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.store.EvidenceNotRecordedException;
import dev.capability.kernel.core.BackendSelection;
import dev.capability.kernel.core.CommandKernel;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code capability exec}: run a command under the policy and report what happened. */
@Command(name = "exec", description = "Run a command under the operator policy; exit with its exit code.")
final class ExecCommand implements Callable<Integer> {
  private final Console console;

  @Mixin KernelOptions options;

  @Mixin RequestEnvironmentOption environment;

  @Option(names = "--backend", paramLabel = "ID",
      description = "Use this backend (default: the strongest sandbox that fits; never one that is not a sandbox unless the "
          + "policy says allowUnisolatedFallback).")
  String backend;

  @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "A shorter time bound than the policy's (500ms, 30s, 2m, PT1M).")
  Duration timeout;

  @Option(names = "--max-output", paramLabel = "BYTES", description = "A smaller per-stream output bound than the policy's.")
  Long maxOutput;

  @Option(names = "--command", paramLabel = "STRING", description = "The command as a string, split without a shell.")
  String command;

  @Option(names = "--json", description = "Print the result and its attestation as JSON instead of the command's output.")
  boolean json;

  @Parameters(paramLabel = "ARGV", description = "The command as argv, after --.")
  List<String> argv;

  ExecCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    boolean hasArgv = argv != null && !argv.isEmpty();
    if (hasArgv == (command != null)) {
      console.err().println("capability: exec takes either -- ARGV... or --command STRING");
      return ExitCodes.USAGE;
    }
    try (RepositoryLedger ledger = options.ledger().orElse(null);
        CommandKernel kernel = options.kernel(console, ledger)) {
      ExecutionRequest.Builder request = CommandInput.request(console, argv, command);
      options.narrow(request);
      environment.addTo(console, request);
      if (backend != null) {
        request.backend(backend);
      }
      if (timeout != null) {
        request.timeout(timeout);
      }
      if (maxOutput != null) {
        request.maxOutputBytes(maxOutput);
      }
      ExecutionResult result = kernel.execute(request.build());
      report(result);
      return ExitCodes.forExec(result);
    } catch (EvidenceNotRecordedException e) {
      // The command ran, and its output is shown even though the ledger failed; ErrorReport then
      // prints the error and the exit code follows from the exec mapper.
      report(e.result());
      throw e;
    }
  }

  private void report(ExecutionResult result) {
    if (json) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("status", result.status().name());
      out.put("exitCode", result.exitCode().isPresent() ? result.exitCode().getAsInt() : null);
      Map<String, Object> decision = new LinkedHashMap<>();
      decision.put("code", result.decision().code());
      decision.put("layer", result.decision().layer());
      decision.put("rule", result.decision().rule());
      decision.put("message", result.decision().message());
      out.put("decision", decision);
      out.put("stdout", result.stdout().text());
      out.put("stderr", result.stderr().text());
      out.put("failure", result.failureMessage());
      out.put("attestation", AttestationJson.toMap(result.attestation()));
      console.json(out);
      return;
    }
    console.out().writeBytes(result.stdout().bytes());
    console.err().writeBytes(result.stderr().bytes());
    Attestation.Backend ran = result.attestation().backend();
    if (ran != null && result.status() != ExecutionStatus.DENIED) {
      // A backend without a boundary (docs/backends/process.md) is named as such where it ran, and why it ran.
      console.progress(false).accept("ran under the " + ran.id() + " backend"
          + (BackendSelection.isSandbox(ran.capabilities()) ? "" : ", which is not a sandbox")
          + " (" + (ran.capabilities().isEmpty() ? "no isolation capabilities"
              : String.join(", ", ran.capabilities().stream().map(Enum::name).sorted().toList())) + "); "
          + (ran.choice() == Attestation.Backend.Choice.NAMED ? "named by --backend" : "chosen: " + ran.reason()));
    }
    if (result.status() == ExecutionStatus.DENIED) {
      console.err().println("capability: denied " + result.decision().code() + " (" + result.decision().layer()
          + " " + result.decision().rule() + "): " + result.decision().message());
    } else if (result.status() == ExecutionStatus.TIMED_OUT) {
      console.err().println("capability: timed out; the whole process tree was ended");
    } else if (result.status() == ExecutionStatus.OUTPUT_LIMIT) {
      console.err().println("capability: output limit reached; the command was ended and its output truncated");
    } else if (result.status() == ExecutionStatus.MEMORY_LIMIT) {
      console.err().println("capability: memory limit reached; the out-of-memory killer ended the command"
          + result.exitCode().stream().mapToObj(code -> " (exit " + code + ")").findFirst().orElse(""));
    } else if (result.status() == ExecutionStatus.PROCESS_LIMIT) {
      console.err().println("capability: process limit reached; a fork of the command was refused"
          + result.exitCode().stream().mapToObj(code -> " (exit " + code + ")").findFirst().orElse(""));
    } else if (result.status() == ExecutionStatus.FILE_SIZE_LIMIT) {
      console.err().println("capability: file size limit reached; the write was refused and SIGXFSZ ended the command");
    } else if (result.status() == ExecutionStatus.WRITE_LIMIT) {
      console.err().println("capability: write budget reached; the writable roots grew beyond it and the command was ended");
    } else if (result.status() == ExecutionStatus.LAUNCH_FAILED) {
      console.err().println("capability: could not launch: " + result.failureMessage());
    } else if (result.status() == ExecutionStatus.WORKSPACE_REFUSED) {
      console.err().println("capability: the returned workspace was not applied: " + result.failureMessage()
          + result.exitCode().stream().mapToObj(code -> " (exit " + code + ")").findFirst().orElse(""));
    }
    reportViolations(result);
  }

  /**
   * One line for writes and one for refused connections, whatever else was said: a write outside
   * the scope or an attempt to reach an ungranted destination must never pass unnoticed.
   */
  private void reportViolations(ExecutionResult result) {
    List<Attestation.Violation> violations = result.attestation().violations();
    List<Attestation.Violation> egress = violations.stream().filter(ExecCommand::isEgress).toList();
    List<Attestation.Violation> writes = violations.stream().filter(v -> !isEgress(v)).toList();
    String exit = "; the command's exit code was "
        + (result.exitCode().isPresent() ? String.valueOf(result.exitCode().getAsInt()) : "none")
        + "; exiting " + ExitCodes.WRITE_VIOLATION;
    if (!writes.isEmpty()) {
      Attestation.Violation first = writes.get(0);
      console.err().println("capability: write violation: " + writes.size() + " path" + (writes.size() == 1 ? "" : "s")
          + " written where the policy allows no writes, first " + Console.quote(first.path()) + " (" + first.kind() + ", "
          + first.layer() + " " + first.rule() + ": " + first.reason() + ")" + exit);
    }
    if (!egress.isEmpty()) {
      Attestation.Violation first = egress.get(0);
      console.err().println("capability: egress refused: " + egress.size() + " connection attempt" + (egress.size() == 1 ? "" : "s")
          + " refused by the egress proxy, first " + Console.quote(first.path()) + " (" + first.kind() + ", "
          + first.layer() + " " + first.rule() + ")" + exit);
    }
  }

  /** A refused egress attempt: its kind is the proxy's refusal code, which always starts with {@code EGRESS_}. */
  private static boolean isEgress(Attestation.Violation violation) {
    return violation.kind().startsWith("EGRESS_");
  }
}
