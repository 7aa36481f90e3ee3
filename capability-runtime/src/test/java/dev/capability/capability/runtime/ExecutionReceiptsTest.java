package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Sha256;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExecutionReceiptsTest {
  private static final Effect WRITE = Effect.of("filesystem.write", "notes");

  private static ExecutionReceipt receipt(String input, Optional<String> output, List<Effect> used) {
    return receipt(input, output, used, List.of());
  }

  private static ExecutionReceipt receipt(String input, Optional<String> output, List<Effect> used, List<EffectViolation> violations) {
    return new ExecutionReceipt(
        "ab".repeat(32),
        "notes@1.0.0",
        input,
        output,
        List.of(WRITE),
        List.of(WRITE),
        used,
        violations,
        "child-jvm",
        true,
        Optional.empty(),
        List.of(new HookOutcome("execute", HookOutcome.Status.SUCCEEDED, "")),
        ExecutionOutcome.SUCCEEDED,
        "SUCCEEDED",
        "succeeded",
        Instant.parse("2026-11-30T00:00:00Z"),
        Instant.parse("2026-11-30T00:00:01Z"),
        false);
  }

  @Test
  void redactionReplacesInputAndOutputByTheirDigestAndKeepsTheRest() {
    String secretInput = "{\"text\":\"my password is hunter2\"}";
    ExecutionReceipt original = receipt(secretInput, Optional.of("{\"saved\":\"hunter2\"}"), List.of(WRITE));

    ExecutionReceipt redacted = original.redact();

    assertThat(redacted.redacted()).isTrue();
    assertThat(redacted.inputJson()).isEqualTo("sha256:" + Sha256.hex(secretInput.getBytes(StandardCharsets.UTF_8)));
    assertThat(redacted.output()).hasValueSatisfying(o -> assertThat(o).startsWith("sha256:").doesNotContain("hunter2"));
    assertThat(redacted.planFingerprint()).isEqualTo(original.planFingerprint());
    assertThat(redacted.usedEffects()).isEqualTo(original.usedEffects());
    assertThat(redacted.redact()).as("redacting twice changes nothing").isEqualTo(redacted);
    assertThat(ExecutionReceipts.toJson(redacted).toString()).doesNotContain("hunter2");
  }

  @Test
  void aRedactingStoreNeverPassesOnTheClearText() {
    List<ExecutionReceipt> stored = new ArrayList<>();
    ExecutionReceipts.redacting(stored::add).store(receipt("{\"text\":\"secret\"}", Optional.empty(), List.of()));

    assertThat(stored).singleElement().satisfies(r -> {
      assertThat(r.redacted()).isTrue();
      assertThat(r.inputJson()).doesNotContain("secret");
      assertThat(r.output()).isEmpty();
    });
  }

  @Test
  void theJsonFormNamesEveryEffectListAndTheHooks() {
    Map<String, Object> json = ExecutionReceipts.toJson(receipt("{}", Optional.of("{}"), List.of(WRITE)));

    assertThat(json.keySet()).startsWith("fingerprint", "status");
    assertThat(json).containsEntry("usedEffects", List.of(Map.of("kind", "filesystem.write", "scope", "notes")));
    assertThat(json).containsEntry("attestation", null).containsEntry("redacted", false);
    assertThat(json.get("hooks")).isEqualTo(List.of(Map.of("hook", "execute", "status", "SUCCEEDED", "detail", "")));
  }

  @Test
  void theJsonFormNamesEachViolationWithItsTargetAndCode() {
    EffectViolation refused =
        new EffectViolation(EffectKind.NETWORK_CONNECT, "other.test:80", "EGRESS_NOT_GRANTED", "connect to other.test:80 refused by the egress proxy");

    Map<String, Object> json = ExecutionReceipts.toJson(receipt("{}", Optional.of("{}"), List.of(), List.of(refused)));

    assertThat(json).containsEntry(
        "violations",
        List.of(Map.of(
            "kind", "network.connect", "target", "other.test:80", "code", "EGRESS_NOT_GRANTED",
            "detail", "connect to other.test:80 refused by the egress proxy")));
    assertThat(ExecutionReceipts.toJson(receipt("{}", Optional.of("{}"), List.of()))).containsEntry("violations", List.of());
  }

  @Test
  void aReceiptCannotClaimAnEffectWasUsedThatWasNeverGranted() {
    assertThatThrownBy(
            () ->
                new ExecutionReceipt(
                    "ab".repeat(32), "x@1", "{}", Optional.empty(), List.of(WRITE), List.of(), List.of(WRITE), List.of(), "child-jvm", true,
                    Optional.empty(), List.of(), ExecutionOutcome.FAILED, "CAPABILITY_FAILED", "m", Instant.EPOCH, Instant.EPOCH, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only granted effects");
  }
}
