package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanJsonTest {
  private static final String ENTRY = "com.example.Tool";
  private static final ExecutorIdentity EXECUTOR = new ExecutorIdentity("child-jvm", new TreeMap<>(Map.of("backend", "bwrap")));
  @TempDir Path work;

  private CapabilityPlan plan(String effects, String input) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")), null, Map.of());
    CapabilityPackage pkg = CapabilityPackages.open(TestPackages.directory(work.resolve("p"), jar, ENTRY, effects));
    return CapabilityPlans.plan(pkg, input, EXECUTOR, EffectPolicies.denyAll());
  }

  @Test
  void aDoubleWhoseShortestDigitsAreNotItsExactValueReadsBackAsTheSameDouble() throws IOException {
    // 2^-30: canonical JSON writes 9.313225746154785e-10, which as an exact decimal is not 2^-30; likewise 2^68.
    CapabilityPlan plan = plan("{}", "{\"text\":\"t\",\"n\":9.31322574615478515625E-10,\"big\":295147905179352825856}");

    assertThat(plan.canonicalJson()).contains("\"n\":9.313225746154785e-10").contains("\"big\":295147905179352830000");
    assertThat(CapabilityPlans.fromJson(plan.canonicalJson()).fingerprint()).isEqualTo(plan.fingerprint());
  }

  @Test
  void aPlanWithEffectsReadsBackWithTheSameEffects() throws IOException {
    CapabilityPlan plan = plan("{\"filesystem.write\": [\"notes\"], \"filesystem.read\": [\"data\"]}", "{\"text\":\"t\"}");

    CapabilityPlan read = CapabilityPlans.fromJson(plan.canonicalJson());

    assertThat(read.effects()).containsExactly(Effect.of("filesystem.read", "data"), Effect.of("filesystem.write", "notes"));
    assertThat(read).isEqualTo(plan);
  }

  @Test
  void aPlanWithAnotherValueAnywhereIsAnotherPlan() throws IOException {
    CapabilityPlan plan = plan("{}", "{\"text\":\"t\"}");
    String json = plan.canonicalJson();

    for (String changed : new String[] {
        json.replace("\"text\":\"t\"", "\"text\":\"u\""),
        json.replace("\"backend\":\"bwrap\"", "\"backend\":\"process\""),
        json.replace("\"version\":\"1.2.3\"", "\"version\":\"1.2.4\""),
        json.replace("\"policy\":\"", "\"policy\":\"0"),
        json.replace("\"effects\":[]", "\"effects\":[{\"kind\":\"filesystem.read\",\"scope\":\"data\"}]")}) {
      assertThat(changed).isNotEqualTo(json);
      CapabilityPlan other = CapabilityPlans.fromJson(changed);
      assertThat(other).as(changed).isNotEqualTo(plan);
      assertThatThrownBy(() -> PlanVerifier.verify(other.fingerprint(), plan))
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo("PLAN_DRIFT"));
    }
  }

  @Test
  void refusesJsonThatIsNotAPlanNamingWhere() throws IOException {
    String json = plan("{}", "{\"text\":\"t\"}").canonicalJson();

    assertInvalid("[]", "the plan must be an object");
    assertInvalid(json.replace("\"policy\":", "\"policies\":"), "the plan has no member 'policy'");
    assertInvalid(json.replaceFirst("\\{", "{\"extra\":1,"), "the plan has an unknown member \"extra\"");
    assertInvalid(json.replace("\"name\":\"test-capability\"", "\"name\":7"), "/capability/name must be a string");
    assertInvalid(json.replace("\"class\":\"com.example.Tool\"", "\"klass\":\"com.example.Tool\""), "/capability/entry has no member 'class'");
    assertInvalid(json.replace("\"backend\":\"bwrap\"", "\"backend\":true"), "/executor/advertises member \"backend\" must be a string");
    assertInvalid(json.replace("\"effects\":[]", "\"effects\":{}"), "/effects must be an array");
    assertInvalid(json.replace("\"effects\":[]", "\"effects\":[{\"kind\":\"filesystem.read\"}]"), "/effects/0 has no member 'scope'");
    assertInvalid(json.replace("\"effects\":[]", "\"effects\":[{\"kind\":\"telepathy\",\"scope\":\"x\"}]"), "/effects/0: EFFECT_UNKNOWN");
    assertInvalid(json.replace("\"effects\":[]", "\"effects\":[{\"kind\":\"filesystem.read\",\"scope\":\"/\"}]"), "/effects/0: EFFECT_SCOPE_UNBOUNDED");
    assertInvalid(
        json.replace("\"effects\":[]", "\"effects\":[{\"kind\":\"filesystem.write\",\"scope\":\"b\"},{\"kind\":\"filesystem.read\",\"scope\":\"a\"}]"),
        "/effects/1 is filesystem.read(a), which repeats or is out of order");
    assertInvalid(
        json.replace("\"effects\":[]", "\"effects\":[{\"kind\":\"filesystem.read\",\"scope\":\"a\"},{\"kind\":\"filesystem.read\",\"scope\":\"a\"}]"),
        "repeats or is out of order");
    assertInvalid(json.replace("\"text\":\"t\"", "\"text\":\"t\",\"text\":\"u\""), "Duplicate field 'text'");
    assertInvalid(json + " {}", "the plan");
    assertInvalid(json.replace("\"text\":\"t\"", "\"text\":1e400"), "the plan's input has no canonical JSON form");
  }

  private static void assertInvalid(String json, String message) {
    assertThatThrownBy(() -> CapabilityPlans.fromJson(json))
        .as(json)
        .isInstanceOfSatisfying(CapabilityException.class, e -> {
          assertThat(e.code()).isEqualTo("PLAN_INVALID");
          assertThat(e.getMessage()).contains(message);
        });
  }

  @Test
  void verifyingAFingerprintRefusesAnotherPlanAndTextThatIsNoFingerprint() throws IOException {
    CapabilityPlan plan = plan("{}", "{\"text\":\"t\"}");
    PlanVerifier.verify(plan.fingerprint(), plan);

    String other = "0".repeat(64);
    assertThatThrownBy(() -> PlanVerifier.verify(other, plan))
        .isInstanceOfSatisfying(CapabilityException.class, e -> {
          assertThat(e.code()).isEqualTo("PLAN_DRIFT");
          assertThat(e.getMessage()).contains("approved " + other + ", now " + plan.fingerprint());
        });
    for (String notAFingerprint : new String[] {"", plan.fingerprint().toUpperCase(java.util.Locale.ROOT), plan.fingerprint() + "0", "sha256:" + plan.fingerprint()}) {
      assertThatThrownBy(() -> PlanVerifier.verify(notAFingerprint, plan))
          .as(notAFingerprint)
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo("PLAN_INVALID"));
    }
  }
}
