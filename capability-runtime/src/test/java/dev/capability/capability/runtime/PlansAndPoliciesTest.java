package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlansAndPoliciesTest {
  private static final String ENTRY = "com.example.Tool";
  private static final ExecutorIdentity EXECUTOR = new ExecutorIdentity("child-jvm", new TreeMap<>(Map.of("isolation", "bwrap")));
  @TempDir Path work;

  private CapabilityPackage pkg(String name, String effects) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")), null, Map.of());
    return CapabilityPackages.open(TestPackages.directory(work.resolve(name), jar, ENTRY, effects));
  }

  @Test
  void fingerprintIgnoresInputKeyOrderButNotInputValues() throws IOException {
    CapabilityPackage pkg = pkg("p", "{}");
    EffectPolicy policy = EffectPolicies.denyAll();
    String a = CapabilityPlans.plan(pkg, "{\"text\":\"hi\",\"n\":1}", EXECUTOR, policy).fingerprint();
    String b = CapabilityPlans.plan(pkg, "{ \"n\": 1.0, \"text\": \"hi\" }", EXECUTOR, policy).fingerprint();
    String c = CapabilityPlans.plan(pkg, "{\"text\":\"ho\",\"n\":1}", EXECUTOR, policy).fingerprint();
    assertThat(a).isEqualTo(b).isNotEqualTo(c).hasSize(64);
  }

  @Test
  void refusesInputThatIsNotStrictJsonOrDoesNotMatchTheSchema() throws IOException {
    CapabilityPackage pkg = pkg("p", "{}");
    for (String input : List.of("{\"text\":1}", "{}", "{\"text\":\"a\",\"text\":\"b\"}", "{\"text\":\"a\"} // c", "[")) {
      assertThatThrownBy(() -> CapabilityPlans.plan(pkg, input, EXECUTOR, EffectPolicies.denyAll()))
          .as(input)
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo("INPUT_INVALID"));
    }
  }

  @Test
  void verifierNamesWhatDrifted() throws IOException {
    CapabilityPackage pkg = pkg("p", "{}");
    CapabilityPlan approved = CapabilityPlans.plan(pkg, "{\"text\":\"hi\"}", EXECUTOR, EffectPolicies.denyAll());
    PlanVerifier.verify(approved, CapabilityPlans.plan(pkg, "{\"text\":\"hi\"}", EXECUTOR, EffectPolicies.denyAll()));

    assertDrift(approved, CapabilityPlans.plan(pkg, "{\"text\":\"other\"}", EXECUTOR, EffectPolicies.denyAll()), "input");
    assertDrift(approved, CapabilityPlans.plan(pkg, "{\"text\":\"hi\"}", EXECUTOR, EffectPolicies.permissive(Approval::grant)), "policy");
    ExecutorIdentity weaker = new ExecutorIdentity("child-jvm", new TreeMap<>(Map.of("isolation", "none")));
    assertDrift(approved, CapabilityPlans.plan(pkg, "{\"text\":\"hi\"}", weaker, EffectPolicies.denyAll()), "executor");

    Path dir = work.resolve("p");
    Files.writeString(dir.resolve("README.txt"), "added after approval");
    CapabilityPackage changed = CapabilityPackages.open(dir);
    assertDrift(approved, CapabilityPlans.plan(changed, "{\"text\":\"hi\"}", EXECUTOR, EffectPolicies.denyAll()), "capability");
  }

  @Test
  void aChangedNetworkScopeChangesTheFingerprintAndAnOldApprovalIsRefused() throws IOException {
    CapabilityPackage pkg = pkg("caller", "{\"network.connect\": [\"svc.test:8080\"]}");
    CapabilityRuntime runtime = CapabilityRuntime.builder().executor("in-process").policy(EffectPolicies.permissive(Approval::grant)).build();
    CapabilityPlan approved = runtime.plan(pkg, "{\"text\":\"hi\"}");
    Path manifest = work.resolve("caller/capability.json");
    Files.writeString(manifest, Files.readString(manifest).replace("svc.test:8080", "svc.test:9090"));
    CapabilityPackage widened = CapabilityPackages.open(work.resolve("caller"));

    CapabilityPlan now = runtime.plan(widened, "{\"text\":\"hi\"}");
    ExecutionReceipt receipt = runtime.run(approved, widened, "{\"text\":\"hi\"}");

    assertThat(approved.effects()).containsExactly(Effect.of("network.connect", "svc.test:8080"));
    assertThat(now.effects()).containsExactly(Effect.of("network.connect", "svc.test:9090"));
    assertThat(now.fingerprint()).isNotEqualTo(approved.fingerprint());
    assertDrift(approved, now, "capability, effects");
    assertThatThrownBy(() -> PlanVerifier.verify(approved.fingerprint(), now))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo("PLAN_DRIFT"));
    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo("PLAN_DRIFT");
    assertThat(receipt.grantedEffects()).as("nothing of the new scope was granted").isEmpty();
  }

  private static void assertDrift(CapabilityPlan approved, CapabilityPlan now, String field) {
    assertThatThrownBy(() -> PlanVerifier.verify(approved, now))
        .isInstanceOfSatisfying(CapabilityException.class, e -> {
          assertThat(e.code()).isEqualTo("PLAN_DRIFT");
          assertThat(e.getMessage()).contains("changed: " + field);
        });
  }

  @Test
  void denyAllRunsOnlyCapabilitiesWithoutEffects() throws IOException {
    CapabilityPlan none = CapabilityPlans.plan(pkg("none", "{}"), "{\"text\":\"x\"}", EXECUTOR, EffectPolicies.denyAll());
    assertThat(EffectPolicies.decide(EffectPolicies.denyAll(), none).allowed()).isTrue();
    CapabilityPlan reads = CapabilityPlans.plan(pkg("reads", "{\"filesystem.read\": [\"data\"]}"), "{\"text\":\"x\"}", EXECUTOR, EffectPolicies.denyAll());
    PolicyDecision denied = EffectPolicies.decide(EffectPolicies.denyAll(), reads);
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.code()).isEqualTo("POLICY_DENIED");
  }

  @Test
  void permissiveAsksOnlyForMutatingEffectsAndGrantsExactlyThePlan() throws IOException {
    CapabilityPackage pkg = pkg("w", "{\"filesystem.read\": [\"data\"], \"filesystem.write\": [\"notes\"]}");
    AtomicReference<ApprovalRequest> asked = new AtomicReference<>();
    EffectPolicy policy = EffectPolicies.permissive(request -> { asked.set(request); return Approval.grant(request); });
    CapabilityPlan plan = CapabilityPlans.plan(pkg, "{\"text\":\"x\"}", EXECUTOR, policy);
    PolicyDecision decision = EffectPolicies.decide(policy, plan);
    assertThat(decision.allowed()).isTrue();
    assertThat(decision.granted()).containsExactly(Effect.of("filesystem.read", "data"), Effect.of("filesystem.write", "notes"));
    assertThat(asked.get().effects()).containsExactly(Effect.of("filesystem.write", "notes"));
    assertThat(asked.get().planFingerprint()).isEqualTo(plan.fingerprint());
    PlanVerifier.verifyDecision(plan, decision);
  }

  @Test
  void anApprovalCannotBeReplayedForAnotherPlan() throws IOException {
    CapabilityPackage pkg = pkg("w", "{\"filesystem.write\": [\"notes\"]}");
    AtomicReference<Approval> first = new AtomicReference<>();
    EffectPolicy recording = EffectPolicies.permissive(request -> { first.set(Approval.grant(request)); return first.get(); });
    CapabilityPlan planA = CapabilityPlans.plan(pkg, "{\"text\":\"a\"}", EXECUTOR, recording);
    PolicyDecision decisionA = EffectPolicies.decide(recording, planA);
    assertThat(decisionA.allowed()).isTrue();

    EffectPolicy replaying = EffectPolicies.permissive(request -> first.get());
    CapabilityPlan planB = CapabilityPlans.plan(pkg, "{\"text\":\"b\"}", EXECUTOR, replaying);
    PolicyDecision decisionB = EffectPolicies.decide(replaying, planB);
    assertThat(decisionB.allowed()).isFalse();
    assertThat(decisionB.code()).isEqualTo("APPROVAL_NOT_FOR_PLAN");

    assertThatThrownBy(() -> PlanVerifier.verifyDecision(planB, decisionA))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo("APPROVAL_NOT_FOR_PLAN"));
  }

  @Test
  void approvalHandlersThatThrowHangOrAnswerNonsenseDeny() throws IOException {
    CapabilityPackage pkg = pkg("w", "{\"filesystem.write\": [\"notes\"], \"network.connect\": [\"example.org:443\"]}");
    CountDownLatch never = new CountDownLatch(1);
    Map<String, ApprovalHandler> handlers =
        Map.of(
            "APPROVAL_FAILED", request -> { throw new IllegalStateException("boom"); },
            "APPROVAL_TIMED_OUT", request -> {
              try {
                never.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return Approval.grant(request);
            },
            "APPROVAL_INVALID", request -> null,
            "APPROVAL_REFUSED", request -> Approval.refuse(request, "no"));
    for (var handler : handlers.entrySet()) {
      EffectPolicy policy = EffectPolicies.permissive(handler.getValue(), Duration.ofMillis(200));
      CapabilityPlan plan = CapabilityPlans.plan(pkg, "{\"text\":\"x\"}", EXECUTOR, policy);
      PolicyDecision decision = EffectPolicies.decide(policy, plan);
      assertThat(decision.allowed()).as(handler.getKey()).isFalse();
      assertThat(decision.code()).isEqualTo(handler.getKey());
    }
    ApprovalHandler narrower =
        request -> new Approval(request.planFingerprint(), true, List.of(Effect.of("filesystem.write", "notes")), "partly");
    EffectPolicy policy = EffectPolicies.permissive(narrower, Duration.ofSeconds(30));
    CapabilityPlan plan = CapabilityPlans.plan(pkg, "{\"text\":\"x\"}", EXECUTOR, policy);
    assertThat(EffectPolicies.decide(policy, plan).code()).isEqualTo("APPROVAL_INVALID");
  }

  @Test
  void customPoliciesFailClosed() throws IOException {
    CapabilityPackage pkg = pkg("w", "{\"filesystem.write\": [\"notes\"]}");
    EffectPolicy throwing = custom(plan -> { throw new IllegalStateException("bug"); });
    assertThat(decideFresh(pkg, throwing).code()).isEqualTo("POLICY_FAILED");
    EffectPolicy overGranting = custom(plan -> PolicyDecision.allow(plan, List.of(Effect.of("network.connect", "evil.example:443"))));
    assertThat(decideFresh(pkg, overGranting).code()).isEqualTo("POLICY_FAILED");
    EffectPolicy writesOnly = custom(plan -> PolicyDecision.allow(plan, plan.effects()));
    assertThat(decideFresh(pkg, writesOnly).allowed()).isTrue();
    CapabilityPlan planForDenyAll = CapabilityPlans.plan(pkg, "{\"text\":\"x\"}", EXECUTOR, EffectPolicies.denyAll());
    assertThat(EffectPolicies.decide(writesOnly, planForDenyAll).code()).isEqualTo("PLAN_DRIFT");
  }

  private static PolicyDecision decideFresh(CapabilityPackage pkg, EffectPolicy policy) {
    return EffectPolicies.decide(policy, CapabilityPlans.plan(pkg, "{\"text\":\"x\"}", EXECUTOR, policy));
  }

  private interface Decider {
    PolicyDecision decide(CapabilityPlan plan);
  }

  private static EffectPolicy custom(Decider decider) {
    return new EffectPolicy() {
      @Override
      public Map<String, Object> description() {
        SortedMap<String, Object> description = new TreeMap<>();
        description.put("policy", "custom");
        return description;
      }

      @Override
      public PolicyDecision decide(CapabilityPlan plan) {
        return decider.decide(plan);
      }
    };
  }
}
