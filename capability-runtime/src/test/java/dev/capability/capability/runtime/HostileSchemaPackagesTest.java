package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.capability.runtime.internal.manifest.Integrity;
import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Packages whose manifest schemas attack the host that validates against them. */
class HostileSchemaPackagesTest {
  private static final String ENTRY = "com.example.Tool";
  private static final ExecutorIdentity EXECUTOR = new ExecutorIdentity("child-jvm", new TreeMap<>(Map.of("isolation", "bwrap")));
  private static final String CATASTROPHIC = "^(.*a){20}$";
  @TempDir Path work;

  private Path packageWith(String name, String inputSchema, String outputSchema, String executeBody) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", executeBody)), null, Map.of());
    Path root = work.resolve(name);
    Files.createDirectories(root.resolve("lib"));
    Files.write(root.resolve("lib/cap.jar"), jar);
    Files.writeString(
        root.resolve("capability.json"),
        """
        {"name": "hostile", "version": "1.0.0",
         "entry": {"module": "./lib/cap.jar", "class": "%s"},
         "modules": {"./lib/cap.jar": "%s"},
         "input": %s, "output": %s}
        """.formatted(ENTRY, Integrity.of(jar), inputSchema, outputSchema));
    return root;
  }

  private String refusal(String inputSchema) throws IOException {
    Path root = packageWith("p" + Integer.toHexString(inputSchema.hashCode()), inputSchema, "{}", "return \"{}\";");
    try {
      CapabilityPackages.open(root);
      return "ACCEPTED";
    } catch (CapabilityException e) {
      return e.code();
    }
  }

  @Test
  void refusesReferenceCyclesThatConsumeNoInputAtInspection() throws IOException {
    assertThat(refusal("{\"$ref\": \"#\"}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_CYCLE);
    assertThat(refusal("{\"$defs\": {\"a\": {\"$ref\": \"#/$defs/b\"}, \"b\": {\"allOf\": [{\"$ref\": \"#/$defs/a\"}]}},"
        + " \"$ref\": \"#/$defs/a\"}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_CYCLE);
    assertThat(refusal("{\"$defs\": {\"a\": {\"not\": {\"$ref\": \"#\"}}}, \"anyOf\": [{\"$ref\": \"#/$defs/a\"}]}"))
        .isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_CYCLE);
    assertThat(refusal("{\"$anchor\": \"me\", \"if\": {\"$ref\": \"#me\"}}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_CYCLE);
    assertThat(refusal("{\"enum\": [{\"$anchor\": \"me\"}], \"properties\": {\"a\": {\"$anchor\": \"me\", \"not\": {\"$ref\": \"#me\"}}}}"))
        .isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_INVALID);
    assertThat(refusal("{\"$ref\": \"#/%zz\"}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_INVALID);
    assertThat(refusal("{\"$ref\": \"#/a~2\"}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_INVALID);
  }

  @Test
  void acceptsRecursionThatConsumesInputAndValidatesTheDeepestInputWithoutOverflow() throws IOException {
    String tree = "{\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}, \"child\": {\"$ref\": \"#\"}}}";
    CapabilityPackage pkg = CapabilityPackages.open(packageWith("tree", tree, "{}", "return \"{}\";"));
    String deepest = "{\"child\":".repeat(63) + "{\"text\":\"x\"}" + "}".repeat(63);

    assertThat(CapabilityPlans.plan(pkg, deepest, EXECUTOR, EffectPolicies.denyAll()).fingerprint()).hasSize(64);
    assertThatThrownBy(() -> CapabilityPlans.plan(pkg, deepest.replace("\"x\"", "1"), EXECUTOR, EffectPolicies.denyAll()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.INPUT_INVALID));
  }

  @Test
  void refusesSchemasWhoseChainsOrWorkExceedTheBudget() throws IOException {
    StringBuilder chain = new StringBuilder("{\"$defs\": {");
    for (int i = 0; i < 300; i++) {
      chain.append("\"d").append(i).append("\": {\"$ref\": \"#/$defs/d").append(i + 1).append("\"},");
    }
    chain.append("\"d300\": true}, \"$ref\": \"#/$defs/d0\"}");
    assertThat(refusal(chain.toString())).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_TOO_COSTLY);

    StringBuilder doubling = new StringBuilder("{\"$defs\": {");
    for (int i = 0; i < 30; i++) {
      doubling.append("\"d").append(i).append("\": {\"anyOf\": [{\"$ref\": \"#/$defs/d").append(i + 1)
          .append("\"}, {\"$ref\": \"#/$defs/d").append(i + 1).append("\"}]},");
    }
    doubling.append("\"d30\": {\"type\": \"string\"}}, \"$ref\": \"#/$defs/d0\"}");
    assertThat(refusal(doubling.toString())).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_TOO_COSTLY);

    assertThat(refusal("{\"items\": {\"anyOf\": [{\"$ref\": \"#\"}, {\"$ref\": \"#\"}]}}"))
        .isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_TOO_COSTLY);
  }

  @Test
  void refusesPatternsTheLinearTimeMatcherCannotCompile() throws IOException {
    assertThat(refusal("{\"properties\": {\"text\": {\"pattern\": \"(a)\\\\1\"}}}"))
        .isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_PATTERN_UNSUPPORTED);
    assertThat(refusal("{\"patternProperties\": {\"^(?=a)\": true}}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_PATTERN_UNSUPPORTED);
    assertThat(refusal("{\"$defs\": {\"unused\": {\"pattern\": \"(?<!a)b\"}}}"))
        .isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_PATTERN_UNSUPPORTED);
    assertThat(refusal("{\"pattern\": \"^a{0,4000}$\"}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_PATTERN_UNSUPPORTED);
    assertThat(refusal("{\"type\": [{\"$ref\": \"#\"}]}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_INVALID);
    assertThat(refusal("{\"properties\": {\"pattern\": {\"type\": \"string\"}}}")).isEqualTo("ACCEPTED");
  }

  @Test
  void matchesACatastrophicInputPatternInLinearTime() throws IOException {
    String schema = "{\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\", \"pattern\": \"" + CATASTROPHIC + "\"}}}";
    CapabilityPackage pkg = CapabilityPackages.open(packageWith("in", schema, "{}", "return \"{}\";"));

    assertThatThrownBy(() -> CapabilityPlans.plan(pkg, "{\"text\":\"" + "a".repeat(36) + "b\"}", EXECUTOR, EffectPolicies.denyAll()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.INPUT_INVALID));
    assertThat(CapabilityPlans.plan(pkg, "{\"text\":\"" + "a".repeat(36) + "\"}", EXECUTOR, EffectPolicies.denyAll()).fingerprint())
        .hasSize(64);
  }

  @Test
  void matchesACatastrophicOutputPatternInLinearTimeAfterTheRun() throws IOException {
    String output = "{\"type\": \"object\", \"properties\": {\"out\": {\"type\": \"string\", \"pattern\": \"" + CATASTROPHIC + "\"}}}";
    String body = "return \"{\\\"out\\\":\\\"" + "a".repeat(36) + "b\\\"}\";";
    CapabilityPackage pkg = CapabilityPackages.open(packageWith("out", "{}", output, body));
    CapabilityRuntime runtime = CapabilityRuntime.builder().executor("in-process").receipts(new ArrayList<ExecutionReceipt>()::add).build();

    ExecutionReceipt receipt = runtime.run(pkg, "{}");

    assertThat(receipt.code()).isEqualTo(CapabilityCodes.OUTPUT_INVALID);
  }

  @Test
  void refusesAValueTooCostlyToValidateInsteadOfSpinning() throws IOException {
    String schema = "{\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\", \"pattern\": \"" + "a?".repeat(500) + "b\"}}}";
    CapabilityPackage pkg = CapabilityPackages.open(packageWith("budget", schema, "{}", "return \"{}\";"));
    String huge = "{\"text\":\"" + "a".repeat(500_000) + "\"}";

    assertThatThrownBy(() -> CapabilityPlans.plan(pkg, huge, EXECUTOR, EffectPolicies.denyAll()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e).hasMessageContaining("too costly to validate"));
  }

  @Test
  void refusesNumbersWhoseDivisionWouldComputeMillionsOfDigits() throws IOException {
    assertThat(refusal("{\"multipleOf\": 1e-100000000}")).isEqualTo(CapabilityCodes.MANIFEST_SCHEMA_INVALID);
    String schema = "{\"type\": \"object\", \"properties\": {\"n\": {\"multipleOf\": 3}}}";
    CapabilityPackage pkg = CapabilityPackages.open(packageWith("digits", schema, "{}", "return \"{}\";"));

    assertThatThrownBy(() -> CapabilityPlans.plan(pkg, "{\"n\": 1e100000000}", EXECUTOR, EffectPolicies.denyAll()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.INPUT_INVALID));
    assertThat(CapabilityPlans.plan(pkg, "{\"n\": 3e20}", EXECUTOR, EffectPolicies.denyAll()).fingerprint()).hasSize(64);
  }
}
