package dev.capability.capability.runtime;

import dev.capability.kernel.api.AttestationJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The JSON form of receipts, and stores that change what reaches another store. */
public final class ExecutionReceipts {
  private ExecutionReceipts() {}

  /**
   * The receipt as a JSON object of plain maps, lists, strings, numbers and booleans (what {@code
   * CanonicalJson} accepts). {@code fingerprint} and {@code status} come first; {@code attestation}
   * is the kernel's attestation as an object ({@link AttestationJson#toMap}), or null; {@code
   * output} is null when there was none; {@code violations} is a list of {@code {"kind", "target",
   * "code", "detail"}} objects, empty when none was observed.
   */
  public static Map<String, @Nullable Object> toJson(ExecutionReceipt receipt) {
    Objects.requireNonNull(receipt, "receipt");
    Map<String, @Nullable Object> json = new LinkedHashMap<>();
    json.put("fingerprint", receipt.planFingerprint());
    json.put("status", receipt.outcome().name());
    json.put("code", receipt.code());
    json.put("message", receipt.message());
    json.put("capability", receipt.capability());
    json.put("executor", receipt.executorId());
    json.put("boundaryApplied", receipt.boundaryApplied());
    json.put("redacted", receipt.redacted());
    json.put("input", receipt.inputJson());
    json.put("output", receipt.output().orElse(null));
    json.put("declaredEffects", effects(receipt.declaredEffects()));
    json.put("grantedEffects", effects(receipt.grantedEffects()));
    json.put("usedEffects", effects(receipt.usedEffects()));
    json.put(
        "violations",
        receipt.violations().stream()
            .map(ExecutionReceipts::violation)
            .toList());
    json.put(
        "hooks",
        receipt.hooks().stream()
            .map(hook -> Map.<String, Object>of("hook", hook.hook(), "status", hook.status().name(), "detail", hook.detail()))
            .toList());
    json.put("attestation", receipt.attestation().map(AttestationJson::toMap).orElse(null));
    json.put("startedAt", receipt.startedAt().toString());
    json.put("finishedAt", receipt.finishedAt().toString());
    return json;
  }

  /** A store that hands {@link ExecutionReceipt#redact() redacted} receipts to {@code next}. */
  public static ReceiptStore redacting(ReceiptStore next) {
    Objects.requireNonNull(next, "next");
    return receipt -> next.store(receipt.redact());
  }

  private static Map<String, Object> violation(EffectViolation violation) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("kind", violation.kind().id());
    json.put("target", violation.target());
    json.put("code", violation.code());
    json.put("detail", violation.detail());
    return json;
  }

  private static List<Map<String, Object>> effects(List<Effect> effects) {
    return effects.stream().map(Effect::toCanonical).toList();
  }
}
