package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.capability.kernel.api.json.CanonicalJson;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** A plan read back from its JSON is the same plan, with the same fingerprint, however the JSON was written. */
class PlanJsonProperties {
  private static final String ENTRY = "com.example.Tool";
  private static final List<String> EFFECTS =
      List.of("{}", "{\"filesystem.read\": [\"data\"]}", "{\"filesystem.write\": [\"notes\", \"out\"], \"network.connect\": [\"example.com:443\"]}");
  private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static Path work;
  private static List<CapabilityPackage> packages;

  @BeforeContainer
  static void buildPackages() throws IOException {
    work = Files.createTempDirectory("plan-json-properties");
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")), null, Map.of());
    packages = new ArrayList<>();
    for (int i = 0; i < EFFECTS.size(); i++) {
      packages.add(CapabilityPackages.open(TestPackages.directory(work.resolve("pkg" + i), jar, ENTRY, EFFECTS.get(i))));
    }
  }

  @AfterContainer
  static void cleanUp() throws IOException {
    try (var paths = Files.walk(work)) {
      for (Path path : paths.sorted(Collections.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Property(tries = 200)
  void aPlanReadBackFromItsCanonicalJsonIsTheSamePlan(
      @ForAll("inputs") Object extra, @ForAll("packageIndexes") int pkg, @ForAll("executors") ExecutorIdentity executor) {
    CapabilityPlan plan = plan(pkg, extra, executor);

    CapabilityPlan read = CapabilityPlans.fromJson(plan.canonicalJson());

    assertThat(read).isEqualTo(plan).hasSameHashCodeAs(plan);
    assertThat(read.canonicalJson()).isEqualTo(plan.canonicalJson());
    assertThat(read.fingerprint()).isEqualTo(plan.fingerprint()).isEqualTo(sha256(plan.canonicalJson()));
    assertThat(read.capability()).isEqualTo(plan.capability());
    assertThat(read.effects()).isEqualTo(plan.effects());
    assertThat(read.policyHash()).isEqualTo(plan.policyHash());
    assertThat(CapabilityPlans.fromJson(read.canonicalJson()).canonicalJson()).isEqualTo(plan.canonicalJson());
  }

  @Property(tries = 100)
  void memberOrderWhitespaceAndNumberSpellingOfThePlanJsonNeverChangeTheFingerprint(
      @ForAll("inputs") Object extra, @ForAll("packageIndexes") int pkg, @ForAll long seed) throws IOException {
    CapabilityPlan plan = plan(pkg, extra, new ExecutorIdentity("child-jvm", new TreeMap<>(Map.of("backend", "bwrap"))));
    // Jackson writes BigDecimal and BigInteger exactly, in its own spelling, as the CLI's --json does.
    String rewritten = PRETTY.writeValueAsString(shuffled(plan.toJson(), new Random(seed)));

    CapabilityPlan read = CapabilityPlans.fromJson(rewritten);

    assertThat(read).isEqualTo(plan);
    assertThat(read.fingerprint()).isEqualTo(plan.fingerprint());
  }

  @Property(tries = 100)
  void aPlanReadBackFromJsonIsVerifiedAgainstAFreshPlanOfTheSameRun(@ForAll("inputs") Object extra, @ForAll("packageIndexes") int pkg) {
    ExecutorIdentity executor = new ExecutorIdentity("in-process", new TreeMap<>());
    CapabilityPlan approved = CapabilityPlans.fromJson(plan(pkg, extra, executor).canonicalJson());

    PlanVerifier.verify(approved, plan(pkg, extra, executor));
    PlanVerifier.verify(approved.fingerprint(), plan(pkg, extra, executor));
  }

  private static CapabilityPlan plan(int pkg, Object extra, ExecutorIdentity executor) {
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("text", "t");
    input.put("extra", extra);
    return CapabilityPlans.plan(packages.get(pkg), exactJson(input), executor, EffectPolicies.denyAll());
  }

  /** JSON of {@code value} with every double written as its exact decimal value, which plans accept as input. */
  private static String exactJson(Object value) {
    try {
      return new ObjectMapper().writeValueAsString(exactNumbers(value));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object exactNumbers(Object value) {
    if (value instanceof Double d) {
      return new BigDecimal(d);
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(k, exactNumbers(v)));
      return copy;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(PlanJsonProperties::exactNumbers).toList();
    }
    return value;
  }

  private static Object shuffled(Object value, Random random) {
    if (value instanceof Map<?, ?> map) {
      List<Object> keys = new ArrayList<>(map.keySet());
      Collections.shuffle(keys, random);
      Map<Object, Object> copy = new LinkedHashMap<>();
      keys.forEach(key -> copy.put(key, shuffled(map.get(key), random)));
      return copy;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(element -> shuffled(element, random)).toList();
    }
    return value;
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Provide
  Arbitrary<Integer> packageIndexes() {
    return Arbitraries.integers().between(0, EFFECTS.size() - 1);
  }

  @Provide
  Arbitrary<ExecutorIdentity> executors() {
    return Arbitraries.maps(Arbitraries.of("backend", "isolation", "strength"), texts())
        .ofMaxSize(3)
        .flatMap(advertises -> Arbitraries.of("child-jvm", "in-process").map(id -> new ExecutorIdentity(id, new TreeMap<>(advertises))));
  }

  @Provide
  Arbitrary<Object> inputs() {
    return Arbitraries.lazyOf(
        () -> texts().map(Object.class::cast),
        () -> Arbitraries.longs().between(-(1L << 53), 1L << 53).map(Object.class::cast),
        () -> doubles().map(Object.class::cast),
        () -> Arbitraries.of(true, false).map(Object.class::cast),
        () -> Arbitraries.just(null),
        () -> inputs().list().ofMaxSize(3).map(Object.class::cast),
        () -> Arbitraries.maps(texts(), inputs()).ofMaxSize(3).map(map -> (Object) new TreeMap<>(map)));
  }

  /**
   * Doubles m * 2^k: their exact decimal values (what the input says) are often longer than the
   * shortest digits canonical JSON writes for them, and read back only as doubles.
   */
  private static Arbitrary<Double> doubles() {
    return Combinators.combine(Arbitraries.integers().between(-(1 << 20), 1 << 20), Arbitraries.integers().between(-60, 60))
        .as((m, k) -> Math.scalb((double) m, k));
  }

  private static Arbitrary<String> texts() {
    // Well-formed UTF-16 only: a lone surrogate has no canonical form, and plans refuse it.
    return Arbitraries.strings().withCharRange('\u0000', '\ud7ff').withCharRange('\ue000', '\uffff').ofMaxLength(8);
  }
}
