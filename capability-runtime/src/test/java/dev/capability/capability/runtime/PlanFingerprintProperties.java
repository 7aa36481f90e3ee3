package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

class PlanFingerprintProperties {
  private static final String ENTRY = "com.example.Tool";
  private static final ExecutorIdentity EXECUTOR = new ExecutorIdentity("child-jvm", new TreeMap<>());
  private static Path work;
  private static CapabilityPackage pkg;

  @BeforeContainer
  static void buildPackage() throws IOException {
    work = Files.createTempDirectory("plan-properties");
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")), null, Map.of());
    pkg = CapabilityPackages.open(TestPackages.directory(work.resolve("pkg"), jar, ENTRY, "{}"));
  }

  @AfterContainer
  static void cleanUp() throws IOException {
    try (var paths = Files.walk(work)) {
      for (Path path : paths.sorted(Collections.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static String input(List<String> keys, List<Integer> values) {
    StringBuilder json = new StringBuilder("{\"text\":\"t\"");
    for (int i = 0; i < keys.size(); i++) {
      json.append(",\"k").append(keys.get(i)).append("\":").append(values.get(i));
    }
    return json.append('}').toString();
  }

  @Property(tries = 50)
  void keyOrderOfTheInputNeverChangesTheFingerprint(
      @ForAll @IntRange(min = 0, max = 8) int size, @ForAll long seed) {
    List<String> keys = new ArrayList<>();
    List<Integer> values = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      keys.add(Integer.toString(i));
      values.add(i * 7);
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(seed));
    List<String> shuffledKeys = order.stream().map(keys::get).toList();
    List<Integer> shuffledValues = order.stream().map(values::get).toList();
    EffectPolicy policy = EffectPolicies.denyAll();
    assertThat(CapabilityPlans.plan(pkg, input(shuffledKeys, shuffledValues), EXECUTOR, policy).fingerprint())
        .isEqualTo(CapabilityPlans.plan(pkg, input(keys, values), EXECUTOR, policy).fingerprint());
  }

  @Property(tries = 50)
  void anyChangeOfTheInputOrExecutorChangesTheFingerprint(
      @ForAll @StringLength(max = 20) String a, @ForAll @StringLength(max = 20) String b) {
    EffectPolicy policy = EffectPolicies.denyAll();
    String inputA = "{\"text\":" + dev.capability.kernel.api.json.CanonicalJson.serialize(a) + "}";
    String inputB = "{\"text\":" + dev.capability.kernel.api.json.CanonicalJson.serialize(b) + "}";
    boolean same = CapabilityPlans.plan(pkg, inputA, EXECUTOR, policy).fingerprint()
        .equals(CapabilityPlans.plan(pkg, inputB, EXECUTOR, policy).fingerprint());
    assertThat(same).isEqualTo(a.equals(b));
    ExecutorIdentity other = new ExecutorIdentity("child-jvm", new TreeMap<>(Map.of("x", a)));
    assertThat(CapabilityPlans.plan(pkg, inputA, other, policy).fingerprint())
        .isNotEqualTo(CapabilityPlans.plan(pkg, inputA, EXECUTOR, policy).fingerprint());
  }
}
