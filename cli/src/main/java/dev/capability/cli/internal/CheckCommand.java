package dev.capability.cli.internal;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.core.CheckResult;
import dev.capability.kernel.core.CommandKernel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code capability check}: would this command be allowed, and if not, why not. Launches nothing:
 * the backend it names is chosen from what the probe cache learned ({@link BackendProbeCache}).
 */
@Command(name = "check", description = "Say whether a command would be allowed, and which layer and rule refuse it.")
final class CheckCommand implements Callable<Integer> {
  private final Console console;

  @Mixin KernelOptions options;

  @Mixin RequestEnvironmentOption environment;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Parameters(paramLabel = "ARGV", description = "The command as argv, after --; without it the command string is read from stdin.")
  List<String> argv;

  CheckCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    try (RepositoryLedger ledger = options.ledger().orElse(null);
        CommandKernel kernel = options.decidingKernel(console, ledger)) {
      ExecutionRequest.Builder request = CommandInput.request(console, argv, argv == null || argv.isEmpty() ? console.readStdin() : null);
      options.narrow(request);
      environment.addTo(console, request);
      CheckResult result = kernel.check(request.build());
      print(result);
      return result.decision().allowed() ? ExitCodes.OK : ExitCodes.DENIED;
    }
  }

  private void print(CheckResult result) {
    Decision d = result.decision();
    if (json) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("decision", d.allowed() ? "ALLOW" : "DENY");
      out.put("argv", result.argv());
      out.put("code", d.code());
      out.put("layer", d.layer());
      out.put("rule", d.rule());
      if (d.argIndex().isPresent()) {
        out.put("argIndex", d.argIndex().getAsInt());
      }
      out.put("message", d.message());
      result.executablePath().ifPresent(path -> {
        Map<String, Object> executable = new LinkedHashMap<>();
        executable.put("path", path);
        executable.put("sha256", result.executableSha256().orElseThrow());
        out.put("executable", executable);
      });
      result.backendId().ifPresent(id -> out.put("backend", id));
      console.json(out);
    } else if (d.allowed()) {
      console.out().println("ALLOW " + result.executablePath().orElse("") + " via " + result.backendId().orElse("?"));
    } else {
      console.out().println("DENY " + d.code() + " (" + d.layer() + " " + d.rule()
          + (d.argIndex().isPresent() ? ", argv[" + d.argIndex().getAsInt() + "]" : "") + "): " + d.message());
    }
  }
}
