package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Strict parsing of policy JSON: the format's shape, with no file involved. */
class ExecutionPoliciesParseTest {

  private static PolicyException refusal(String json) {
    PolicyException e = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.parse(json, "test"));
    assertThat(e).as("a refusal of " + json).isNotNull();
    return e;
  }

  private static void assertInvalid(String json, String... messageParts) {
    PolicyException e = refusal(json);
    assertThat(e.code()).as(e.getMessage()).isEqualTo("POLICY_INVALID");
    assertThat(e.getMessage()).contains(messageParts);
  }

  private static String withLs(String lsRule) {
    return "{\"version\": 1, \"executables\": {\"ls\": " + lsRule + "}}";
  }

  @Test
  void fillsInEveryDefault() {
    ExecutionPolicy policy = ExecutionPolicies.parse("{\"version\": 1}", "test").policy();

    assertThat(policy.timeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(policy.maxOutputBytes()).isEqualTo(1 << 20);
    assertThat(policy.maxFileBytes()).isEqualTo(1L << 30);
    assertThat(policy.network()).isEqualTo(NetworkMode.NONE);
    assertThat(policy.projectWrites()).isEqualTo(ProjectWriteMode.READ_ONLY);
    assertThat(policy.writeScopes()).isEmpty();
    assertThat(policy.requiredCapabilities()).isEmpty();
    assertThat(policy.allowRepositoryExecutables()).isFalse();
    assertThat(policy.inheritEnvironment()).isEmpty();
    assertThat(policy.setEnvironment()).isEmpty();
    assertThat(policy.executables()).isEmpty();
    assertThat(policy).isEqualTo(ExecutionPolicy.builder().build());
  }

  @Test
  void aMinimalFileAndOneSpellingOutTheDefaultsHashAlike() {
    String spelledOut = "{\"version\": 1, \"timeoutMillis\": 60000, \"maxOutputBytes\": 1048576, \"maxFileBytes\": 1073741824, \"network\": \"none\","
        + " \"projectWrites\": \"read-only\", \"writeScopes\": [], \"requiredCapabilities\": [],"
        + " \"allowRepositoryExecutables\": false, \"environment\": {\"inherit\": [], \"set\": {}}, \"executables\": {}}";

    assertThat(ExecutionPolicies.parse(spelledOut, "a").hash()).isEqualTo(ExecutionPolicies.parse("{\"version\":1}", "b").hash());
  }

  @Test
  void aFileSizeLimitIsReadAndChangesTheHashOnlyWhenNotTheDefault() {
    var limited = ExecutionPolicies.parse("{\"version\": 1, \"maxFileBytes\": 10485760}", "a");

    assertThat(limited.policy().maxFileBytes()).isEqualTo(10L << 20);
    assertThat(limited.hash()).isNotEqualTo(ExecutionPolicies.parse("{\"version\":1}", "b").hash());
  }

  @Test
  void aWriteBudgetIsReadAndChangesTheHashOnlyWhenNotTheDefault() {
    var budget = ExecutionPolicies.parse("{\"version\": 1, \"maxWriteBytes\": 52428800}", "a");
    var spelledOut = ExecutionPolicies.parse("{\"version\": 1, \"maxWriteBytes\": 4294967296}", "a");

    assertThat(budget.policy().maxWriteBytes()).isEqualTo(50L << 20);
    assertThat(budget.hash()).isNotEqualTo(ExecutionPolicies.parse("{\"version\":1}", "b").hash());
    assertThat(spelledOut.hash()).isEqualTo(ExecutionPolicies.parse("{\"version\":1}", "b").hash());
    assertThat(ExecutionPolicies.parse("{\"version\":1}", "b").policy().maxWriteBytes()).isEqualTo(4L << 30);
  }

  @Test
  void readsEveryPartOfTheFormat() {
    String json = """
        {
          "version": 1,
          "timeoutMillis": 1500,
          "maxOutputBytes": 4096,
          "network": "host",
          "projectWrites": "scoped",
          "writeScopes": ["target/**", "build/*.log"],
          "requiredCapabilities": ["PID_NAMESPACE", "SESSION_TERMINATION"],
          "allowRepositoryExecutables": true,
          "environment": {"inherit": ["PATH"], "set": {"LC_ALL": "C", "GIT_CONFIG_NOSYSTEM": "1"}},
          "executables": {
            "fmt": {
              "path": "/opt/tools/fmt",
              "sha256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
              "exact": [["--check"], []],
              "match": [["/opt/tools/fmt"]],
              "notMatch": [["fmt"]]
            },
            "tool": {
              "name": "tool",
              "arguments": {
                "flags": {
                  "-v": {},
                  "--depth": {"value": {"kind": "integer", "min": 0, "max": 9}},
                  "--mode": {"value": {"kind": "literal", "values": ["a", "b"]}}
                },
                "operands": {"kind": "path", "minCount": 1, "maxCount": 3},
                "doubleDash": "optional"
              },
              "match": [["tool", "-v", "--depth=3", "--mode", "a", "x"]]
            }
          }
        }
        """;

    LoadedPolicy loaded = ExecutionPolicies.parse(json, "inline");
    ExecutionPolicy policy = loaded.policy();

    assertThat(loaded.source()).isEqualTo("inline");
    assertThat(policy.timeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(policy.network()).isEqualTo(NetworkMode.HOST);
    assertThat(policy.writeScopes()).containsExactly("target/**", "build/*.log");
    assertThat(policy.requiredCapabilities()).hasSize(2);
    assertThat(policy.setEnvironment()).containsEntry("GIT_CONFIG_NOSYSTEM", "1");
    assertThat(policy.executable("fmt").orElseThrow().path()).hasValueSatisfying(p -> assertThat(p).hasToString("/opt/tools/fmt"));
    assertThat(policy.executable("tool").orElseThrow().arguments().orElseThrow().flags()).containsOnlyKeys("-v", "--depth", "--mode");
    assertThat(ExecutionPolicies.parse(ExecutionPolicies.toJson(policy), "again")).satisfies(again -> {
      assertThat(again.policy()).isEqualTo(policy);
      assertThat(again.hash()).isEqualTo(loaded.hash());
    });
  }

  @Test
  void requiresAVersion() {
    assertInvalid("{}", "/version");
    assertInvalid("{\"version\": \"1\"}", "/version");
    assertInvalid("{\"version\": 1.0}", "/version");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "2", "-1", "99999999999999999999"})
  void refusesUnknownVersionsBeforeAnythingElse(String version) {
    PolicyException e = refusal("{\"version\": " + version + ", \"fromTheFuture\": true}");

    assertThat(e.code()).isEqualTo("POLICY_VERSION_UNSUPPORTED");
  }

  @Test
  void refusesDuplicateKeysWithTheirLocation() {
    assertInvalid("{\"version\": 1,\n \"network\": \"none\",\n \"network\": \"host\"}", "line 3", "network");
    assertInvalid(withLs("{\"name\": \"ls\", \"exact\": [[]], \"name\": \"cat\"}"), "name");
  }

  @Test
  void refusesAValueAfterThePolicyWithItsLocation() {
    assertInvalid("{\"version\": 1}\n {}", "not valid JSON at line 2, column 2", "content after the JSON value");
  }

  @Test
  void keepsIntegersExactlyAndAFractionIsNoInteger() {
    assertInvalid("{\"version\": 1, \"timeoutMillis\": 9223372036854775808}", "/timeoutMillis", "was 9223372036854775808");
    assertInvalid("{\"version\": 1, \"timeoutMillis\": 1e3}", "/timeoutMillis: expected an integer, found number");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"version\": 1} // comment",
      "/* comment */ {\"version\": 1}",
      "{\"version\": 1, # comment\n}",
      "{\"version\": 1} {}",
      "{\"version\": 1} x",
      "{\"version\": 1,}",
      "{'version': 1}",
      "{version: 1}",
      "{\"version\": 01}",
      "{\"version\": 1, \"timeoutMillis\": NaN}",
      "",
      "   ",
      "[]",
      "null",
      "1"})
  void refusesAnythingButStrictJsonObjects(String json) {
    assertThat(refusal(json).code()).isEqualTo("POLICY_INVALID");
  }

  @Test
  void namesTheLineAndColumnOfASyntaxError() {
    assertInvalid("{\n  \"version\": 1,\n  \"network\": none\n}", "line 3, column");
  }

  @Test
  void refusesUnknownPropertiesByPointer() {
    assertInvalid("{\"version\": 1, \"timeout\": 5}", "at /timeout", "unknown property");
    assertInvalid(withLs("{\"name\": \"ls\", \"arguments\": {\"flag\": {}}}"), "at /executables/ls/arguments/flag");
    assertInvalid(withLs("{\"name\": \"ls\", \"arguments\": {\"flags\": {\"-l\": {\"takesValue\": true}}}}"),
        "at /executables/ls/arguments/flags/-l/takesValue");
    assertInvalid("{\"version\": 1, \"environment\": {\"pass\": []}}", "at /environment/pass");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "\"timeoutMillis\": \"60000\"|/timeoutMillis: expected an integer, found string",
      "\"timeoutMillis\": 1.5|/timeoutMillis: expected an integer, found number",
      "\"timeoutMillis\": 0|/timeoutMillis: the timeout must be a whole number of milliseconds between 1 ms and 24 h",
      "\"maxOutputBytes\": -1|/maxOutputBytes: must be between 1 and 1073741824",
      "\"maxFileBytes\": 0|/maxFileBytes: must be between 1 and 1125899906842624",
      "\"maxWriteBytes\": -5|/maxWriteBytes: must be between 1 and 1125899906842624",
      "\"maxWriteBytes\": \"4G\"|/maxWriteBytes: expected an integer, found string",
      "\"timeoutMillis\": 99999999999999999999|/timeoutMillis: must be between",
      "\"allowRepositoryExecutables\": \"false\"|/allowRepositoryExecutables: expected true or false, found string",
      "\"allowRepositoryExecutables\": null|expected true or false, found null",
      "\"network\": \"NONE\"|/network: \"NONE\" is not one of [none, filtered, host]",
      "\"projectWrites\": \"readonly\"|/projectWrites",
      "\"writeScopes\": \"target/**\"|/writeScopes: expected an array",
      "\"writeScopes\": [1]|/writeScopes/0: expected a string",
      "\"requiredCapabilities\": [\"TELEPORTATION\"]|not an isolation capability",
      "\"requiredCapabilities\": [\"PID_NAMESPACE\", \"PID_NAMESPACE\"]|/requiredCapabilities/1",
      "\"environment\": {\"inherit\": [\"PATH\", \"PATH\"]}|/environment/inherit/1",
      "\"environment\": {\"set\": {\"A\": 1}}|/environment/set/A: expected a string",
      "\"environment\": []|/environment: expected an object",
      "\"executables\": []|/executables: expected an object",
      "\"executables\": {\"ls\": null}|/executables/ls: expected an object"})
  void refusesWrongTypesWithoutCoercion(String member, String message) {
    assertInvalid("{\"version\": 1, " + member + "}", message);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"name\": \"ls\", \"path\": \"/bin/ls\", \"exact\": [[]]}|/executables/ls: an executable rule names exactly one",
      "{\"exact\": [[]]}|/executables/ls: an executable rule names exactly one",
      "{\"name\": \"ls\"}|/executables/ls: an executable rule allows exact arguments, typed arguments, or both",
      "{\"name\": \"ls\", \"sha256\": null, \"exact\": [[]]}|/executables/ls/sha256: expected a string, found null",
      "{\"name\": \"ls\", \"exact\": [\"-l\"]}|/executables/ls/exact/0: expected an array",
      "{\"path\": \"/usr//bin/ls\", \"exact\": [[]]}|/executables/ls/path: \"/usr//bin/ls\" is not written in canonical form",
      "{\"path\": \"/usr/bin/ls/\", \"exact\": [[]]}|/executables/ls/path",
      "{\"name\": \"ls\", \"arguments\": {\"operands\": {}}}|/executables/ls/arguments/operands/kind",
      "{\"name\": \"ls\", \"arguments\": {\"operands\": {\"kind\": \"literal\"}}}|/executables/ls/arguments/operands: a literal value needs",
      "{\"name\": \"ls\", \"arguments\": {\"operands\": {\"kind\": \"path\", \"values\": [\"a\"]}}}|/executables/ls/arguments/operands",
      "{\"name\": \"ls\", \"arguments\": {\"operands\": {\"kind\": \"path\", \"min\": 1}}}|only an integer value may have min or max",
      "{\"name\": \"ls\", \"arguments\": {\"operands\": {\"kind\": \"integer\", \"min\": 2, \"max\": 1}}}|min 2 exceeds max 1",
      "{\"name\": \"ls\", \"arguments\": {\"operands\": {\"kind\": \"literal\", \"values\": [\"a\", \"a\"]}}}|/executables/ls/arguments/operands/values/1",
      "{\"name\": \"ls\", \"arguments\": {\"operands\": {\"kind\": \"path\", \"minCount\": 2, \"maxCount\": 1}}}|maxCount 1 is less than minCount 2",
      "{\"name\": \"ls\", \"arguments\": {\"operands\": {\"kind\": \"path\", \"minCount\": -1}}}|/executables/ls/arguments/operands/minCount",
      "{\"name\": \"ls\", \"arguments\": {\"doubleDash\": \"optional\"}}|-- may be allowed only where operands are",
      "{\"name\": \"ls\", \"arguments\": {\"doubleDash\": \"always\"}}|/executables/ls/arguments/doubleDash",
      "{\"name\": \"ls\", \"arguments\": {\"subcommands\": {\"x\": {}}, \"operands\": {\"kind\": \"path\"}}}|a level with subcommands takes no operands",
      "{\"name\": \"ls\", \"arguments\": {\"subcommands\": {\"x\": {\"exact\": []}}}}|/executables/ls/arguments/subcommands/x/exact",
      "{\"name\": \"ls\", \"arguments\": {\"flags\": {\"-w\": {\"value\": {\"kind\": \"number\"}}}}}|/executables/ls/arguments/flags/-w/value/kind",
      "{\"name\": \"ls\", \"exact\": [[]], \"match\": [\"ls\"]}|/executables/ls/match/0: expected an array"})
  void refusesBrokenRulesByPointer(String rule, String message) {
    assertInvalid(withLs(rule), message);
  }

  @Test
  void escapesPointerTokensAsRfc6901Says() {
    assertInvalid("{\"version\": 1, \"executables\": {\"a/b~c\": {\"name\": 1}}}", "at /executables/a~1b~0c/name");
  }

  @Test
  void noPrefixOfAValidPolicyIsAPolicy() throws IOException {
    // No fallback: a file cut short anywhere (a crashed editor, a full disk) is refused, never read as less.
    String json = Files.readString(ReadonlyDevPolicyTest.FILE).stripTrailing();
    assertThat(ExecutionPolicies.parse(json, "whole").policy().executables()).hasSize(15);

    for (int end = 0; end < json.length(); end++) {
      String prefix = json.substring(0, end);
      assertThatThrownBy(() -> ExecutionPolicies.parse(prefix, "prefix"))
          .as("prefix of length %d", end)
          .isInstanceOf(PolicyException.class);
    }
  }

  @Test
  void aNonsensicalPolicyNeverFallsBackToDefaults() {
    PolicyException e = refusal("{\"version\": 1, \"network\": \"host\", \"executables\": {\"ls\": {\"name\": \"ls\"}}}");

    assertThat(e.code()).isEqualTo("POLICY_INVALID");
  }
}
