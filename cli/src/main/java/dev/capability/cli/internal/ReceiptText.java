package dev.capability.cli.internal;

import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectViolation;
import dev.capability.capability.runtime.ExecutionOutcome;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.kernel.api.Attestation;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/** The plain-text receipt of {@code capability run}: what ran, inside which boundary, and which effects, in words. */
final class ReceiptText {
  private final PrintStream out;

  ReceiptText(PrintStream out) {
    this.out = out;
  }

  void print(ExecutionReceipt receipt) {
    out.println("capability: " + receipt.capability());
    // The code repeats the outcome on success; it says more only when the run did not succeed.
    out.println("outcome: " + receipt.outcome()
        + (receipt.code().equals(receipt.outcome().name()) ? "" : " " + receipt.code() + ": " + receipt.message()));
    out.println("plan: " + receipt.planFingerprint());
    out.println("boundary: " + boundary(receipt));
    receipt.output().ifPresent(output -> out.println("output: " + output));
    out.println("effects:");
    out.println("  declared (what the package says it may do): " + effects(receipt.declaredEffects()));
    out.println("  granted (what the policy allowed this run): " + effects(receipt.grantedEffects()));
    out.println("  used (granted writes the kernel saw change files, connections the egress proxy relayed; reads leave no trace): "
        + effects(receipt.usedEffects()));
    if (!receipt.violations().isEmpty()) {
      out.println("  refused (attempts beyond the grants the boundary stopped):");
      for (EffectViolation violation : receipt.violations()) {
        out.println("    " + violation.kind().id() + " " + violation.target() + " " + violation.code() + ": " + violation.detail());
      }
    }
    out.println("hooks: " + (receipt.hooks().isEmpty() ? "none ran"
        : String.join(", ", receipt.hooks().stream()
            .map(h -> h.hook() + " " + h.status() + (h.detail().isEmpty() ? "" : " (" + h.detail() + ")")).toList())));
  }

  /** Which executor ran it and under which kernel backend, from the attestation of the launch when there was one. */
  private static String boundary(ExecutionReceipt receipt) {
    String executor = "executor " + receipt.executorId();
    if (receipt.outcome() == ExecutionOutcome.REFUSED && receipt.attestation().isEmpty()) {
      return executor + "; nothing ran";
    }
    if (!receipt.boundaryApplied()) {
      return executor + ", no isolation boundary: the code ran with the host's full authority";
    }
    Optional<Attestation.Backend> backend = receipt.attestation().map(Attestation::backend);
    if (backend.isEmpty()) {
      return executor + ", inside an isolation boundary";
    }
    // Sorted by name, as the attestation's JSON form lists them.
    List<String> capabilities = backend.get().capabilities().stream().map(Enum::name).sorted().toList();
    return executor + " under the " + backend.get().id() + " backend"
        + (capabilities.isEmpty() ? " (no isolation capabilities)" : " (" + String.join(", ", capabilities) + ")");
  }

  private static String effects(List<Effect> effects) {
    return effects.isEmpty() ? "none" : String.join(", ", effects.stream().map(Effect::toString).toList());
  }
}
