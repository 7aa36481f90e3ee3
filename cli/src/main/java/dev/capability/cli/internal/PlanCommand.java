package dev.capability.cli.internal;

import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.CapabilityRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capability plan}: the fingerprinted plan a run of this input would be decided on. A person
 * approves it by passing the fingerprint to {@code capability run --expect-plan}.
 */
@Command(name = "plan", description = "Show the fingerprinted plan for running a package on an input.")
final class PlanCommand implements Callable<Integer> {
  private final Console console;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Mixin CapabilityRunOptions options = new CapabilityRunOptions();

  PlanCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    CapabilityPlan plan;
    try (CapabilityRuntime runtime = options.runtime()) {
      plan = runtime.plan(CapabilityPackages.open(options.pkg), options.input);
    }
    if (json) {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("fingerprint", plan.fingerprint());
      view.put("plan", plan.toJson());
      console.json(view);
    } else {
      console.out().println("fingerprint: " + plan.fingerprint());
      console.out().println(plan.canonicalJson());
    }
    return ExitCodes.OK;
  }
}
