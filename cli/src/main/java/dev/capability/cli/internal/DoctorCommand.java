package dev.capability.cli.internal;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.core.BackendStatus;
import dev.capability.kernel.core.CommandKernel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code capability doctor}: which backends this machine really has, and what each can enforce. */
@Command(name = "doctor", description = "Show the backends found here and the isolation capabilities each verified.")
final class DoctorCommand implements Callable<Integer> {
  private final Console console;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  DoctorCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    List<BackendStatus> statuses = CommandKernel.probeBackends(DoctorCommand.class.getClassLoader(), BackendConfig.defaults());
    if (json) {
      List<Map<String, Object>> backends = statuses.stream().map(DoctorCommand::toMap).toList();
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("kernelVersion", CommandKernel.version());
      out.put("backends", backends);
      console.json(out);
    } else {
      for (BackendStatus s : statuses) {
        console.out().println(s.id() + ": " + (s.available() ? "available" : "unavailable: " + s.reason()));
        if (s.available()) {
          console.out().println("  capabilities: " + (s.capabilities().isEmpty() ? "(none: not a sandbox)" : sortedNames(s)));
        }
        new TreeMap<>(s.diagnostics()).forEach((k, v) -> console.out().println("  " + k + ": " + v));
      }
    }
    return statuses.stream().anyMatch(BackendStatus::available) ? ExitCodes.OK : ExitCodes.REFUSED;
  }

  private static List<String> sortedNames(BackendStatus s) {
    return s.capabilities().stream().map(Enum::name).sorted().toList();
  }

  private static Map<String, Object> toMap(BackendStatus s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", s.id());
    m.put("available", s.available());
    m.put("reason", s.reason());
    m.put("capabilities", sortedNames(s));
    m.put("diagnostics", new TreeMap<>(s.diagnostics()));
    return m;
  }
}
