package dev.capability.cli.internal;

import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.capability.runtime.HookOutcome;
import dev.capability.kernel.api.CapabilityException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code capability run}: plans, asks the policy, runs and prints the receipt. */
@Command(name = "run", description = "Run a capability package under the chosen policy and executor, and print the receipt.")
final class RunCommand implements Callable<Integer> {
  private final Console console;

  @Option(names = "--json", description = "Print the receipt as JSON.")
  boolean json;

  @Mixin CapabilityRunOptions options = new CapabilityRunOptions();

  RunCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    ExecutionReceipt receipt;
    try {
      receipt = options.runtime().run(CapabilityPackages.open(options.pkg), options.input);
    } catch (CapabilityException e) {
      console.error(e, json);
      return ExitCodes.forCapability(e);
    }
    Map<String, Object> view = view(receipt);
    if (json) {
      console.json(view);
    } else {
      view.forEach((key, value) -> console.out().println(key + ": " + value));
    }
    return ExitCodes.forReceipt(receipt);
  }

  private static Map<String, Object> view(ExecutionReceipt receipt) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("outcome", receipt.outcome().name());
    view.put("code", receipt.code());
    view.put("message", receipt.message());
    view.put("capability", receipt.capability());
    view.put("plan", receipt.planFingerprint());
    view.put("executor", receipt.executorId());
    view.put("boundary", receipt.boundaryApplied());
    view.put("input", receipt.inputJson());
    view.put("output", receipt.output().orElse(null));
    view.put("declared", receipt.declaredEffects().stream().map(Object::toString).toList());
    view.put("granted", receipt.grantedEffects().stream().map(Object::toString).toList());
    view.put("hooks", receipt.hooks().stream().map(RunCommand::hook).toList());
    view.put("attestation", receipt.attestation().orElse(null));
    view.put("startedAt", receipt.startedAt().toString());
    view.put("finishedAt", receipt.finishedAt().toString());
    return view;
  }

  private static String hook(HookOutcome hook) {
    return hook.hook() + "=" + hook.status() + (hook.detail().isEmpty() ? "" : " (" + hook.detail() + ")");
  }
}
