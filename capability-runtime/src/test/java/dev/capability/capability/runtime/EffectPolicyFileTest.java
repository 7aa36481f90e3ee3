package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EffectPolicyFileTest {
  private static final String ENTRY = "com.example.Tool";
  private static final ExecutorIdentity EXECUTOR = new ExecutorIdentity("child-jvm", new TreeMap<>(Map.of("isolation", "sandbox")));
  private static final String INPUT = "{\"text\":\"x\"}";
  @TempDir Path work;

  private CapabilityPackage pkg(String effects) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")), null, Map.of());
    return CapabilityPackages.open(TestPackages.directory(work.resolve("pkg"), jar, ENTRY, effects));
  }

  private Path policyFile(String json) throws IOException {
    Path file = work.resolve("policy.json");
    Files.writeString(file, json);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    return file;
  }

  private static PolicyDecision decide(EffectPolicy policy, CapabilityPackage pkg) {
    return EffectPolicies.decide(policy, CapabilityPlans.plan(pkg, INPUT, EXECUTOR, policy));
  }

  @Test
  void grantsExactlyTheListedEffectsAndDeniesAPlanThatAsksForOneMore() throws IOException {
    EffectPolicy policy =
        EffectPolicies.load(policyFile("{\"version\":1,\"grants\":[{\"effect\":\"filesystem.read\",\"scope\":\"data\"}]}"));

    PolicyDecision reads = decide(policy, pkg("{\"filesystem.read\": [\"data\"]}"));
    assertThat(reads.allowed()).isTrue();
    assertThat(reads.granted()).containsExactly(Effect.of("filesystem.read", "data"));

    PolicyDecision writesToo = decide(policy, pkg("{\"filesystem.read\": [\"data\"], \"filesystem.write\": [\"data\"]}"));
    assertThat(writesToo.allowed()).isFalse();
    assertThat(writesToo.code()).isEqualTo("POLICY_DENIED");
    assertThat(writesToo.reason()).contains("filesystem.write(data)");

    PolicyDecision otherScope = decide(policy, pkg("{\"filesystem.read\": [\"data/private\"]}"));
    assertThat(otherScope.allowed()).as("a grant covers its exact scope, not what lies under it").isFalse();
  }

  @Test
  void grantsOnlyToTheNamedCapabilities() throws IOException {
    EffectPolicy forOther = EffectPolicies.parse("{\"version\":1,\"capabilities\":[\"other@1.0.0\"],\"grants\":[]}", "inline");
    EffectPolicy forThis = EffectPolicies.parse("{\"version\":1,\"capabilities\":[\"test-capability@1.2.3\"],\"grants\":[]}", "inline");

    assertThat(decide(forOther, pkg("{}")).reason()).contains("grants nothing to test-capability@1.2.3");
    assertThat(decide(forThis, pkg("{}")).allowed()).isTrue();
  }

  @Test
  void refusesMalformedFilesNamingWhatIsWrong() {
    Map<String, String> cases = new TreeMap<>(Map.of(
        "{\"version\":1,\"grants\":[],\"extra\":true}", "unknown member \"extra\"",
        "{\"version\":2,\"grants\":[]}", "\"version\" must be 1",
        "{\"version\":1,\"grants\":[],\"grants\":[]}", "Duplicate field",
        "{\"version\":1}", "\"grants\" must be an array",
        "{\"version\":1,\"grants\":[{\"effect\":\"filesystem.read\",\"scope\":\"data\",\"why\":1}]}", "grants[0]: unknown member",
        "{\"version\":1,\"grants\":[{\"effect\":\"filesystem.read\",\"scope\":\"a\"},{\"effect\":\"filesystem.read\",\"scope\":\"a\"}]}", "grants[1] repeats",
        "{\"version\":1,\"capabilities\":[\"Tool\"],\"grants\":[]}", "capabilities[0]",
        "{\"version\":1,\"grants\":[]} // comment", "inline"));
    cases.forEach(
        (json, message) ->
            assertThatThrownBy(() -> EffectPolicies.parse(json, "inline"))
                .as(json)
                .isInstanceOfSatisfying(CapabilityException.class, e -> {
                  assertThat(e.code()).isEqualTo("POLICY_FILE_INVALID");
                  assertThat(e.getMessage()).contains(message);
                }));
  }

  @Test
  void refusesUnknownAndUnboundedEffectsWithTheirOwnCodes() {
    assertThatThrownBy(() -> EffectPolicies.parse("{\"version\":1,\"grants\":[{\"effect\":\"filesystem.read\",\"scope\":\"/\"}]}", "inline"))
        .isInstanceOfSatisfying(CapabilityException.class, e -> {
          assertThat(e.code()).isEqualTo("EFFECT_SCOPE_UNBOUNDED");
          assertThat(e.getMessage()).contains("inline: grants[0]");
        });
    assertThatThrownBy(() -> EffectPolicies.parse("{\"version\":1,\"grants\":[{\"effect\":\"root.everything\",\"scope\":\"x\"}]}", "inline"))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo("EFFECT_UNKNOWN"));
  }

  @Test
  void refusesAFileOthersMayWriteAndASymbolicLink() throws IOException {
    Path file = policyFile("{\"version\":1,\"grants\":[]}");
    Path link = Files.createSymbolicLink(work.resolve("link.json"), file);
    assertThatThrownBy(() -> EffectPolicies.load(link))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.getMessage()).contains("symbolic links are refused"));

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));
    assertThatThrownBy(() -> EffectPolicies.load(file))
        .isInstanceOfSatisfying(CapabilityException.class, e -> {
          assertThat(e.code()).isEqualTo("POLICY_FILE_INVALID");
          assertThat(e.getMessage()).contains("group or others");
        });
  }

  @Test
  void editingTheFileMakesEarlierPlansDriftButMovingItDoesNot() throws IOException {
    CapabilityPackage pkg = pkg("{\"filesystem.read\": [\"data\"]}");
    String grants = "{\"version\":1,\"grants\":[{\"effect\":\"filesystem.read\",\"scope\":\"data\"}]}";
    CapabilityPlan approved = CapabilityPlans.plan(pkg, INPUT, EXECUTOR, EffectPolicies.load(policyFile(grants)));

    Path moved = Files.writeString(work.resolve("elsewhere.json"), grants);
    Files.setPosixFilePermissions(moved, PosixFilePermissions.fromString("rw-------"));
    PlanVerifier.verify(approved, CapabilityPlans.plan(pkg, INPUT, EXECUTOR, EffectPolicies.load(moved)));

    EffectPolicy edited =
        EffectPolicies.load(policyFile(grants.replace("]}", ",{\"effect\":\"network.connect\",\"scope\":\"example.org:443\"}]}")));
    assertThatThrownBy(() -> PlanVerifier.verify(approved, CapabilityPlans.plan(pkg, INPUT, EXECUTOR, edited)))
        .isInstanceOfSatisfying(CapabilityException.class, e -> {
          assertThat(e.code()).isEqualTo("PLAN_DRIFT");
          assertThat(e.getMessage()).contains("policy");
        });
    assertThat(List.of(approved.policyHash())).doesNotContain(edited.hash());
  }
}
