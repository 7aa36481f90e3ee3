package dev.capability.workflow;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.util.List;
import java.util.Map;

/** The operator's policy, contracts and plans the work-plan tests share. */
final class Fixtures {
  private Fixtures() {}

  static final List<String> OPERATOR_SCOPES = List.of("src/**", "target/**", "docs/**");

  /**
   * The operator's policy: exact argument lists for the Java project's commands, and one typed
   * rule ({@code grep -q STRING...}) that the critics use and high assurance does not accept as
   * evidence. ({@code true} and {@code false} are refused by the kernel's built-in checks.)
   */
  static ExecutionPolicy.Builder policy() {
    return ExecutionPolicy.builder()
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(OPERATOR_SCOPES)
        .executable(ExecutableRule.named("javac")
            .exact("-d", "target/classes", "src/main/java/Calc.java")
            .exact("-d", "target/test-classes", "-cp", "target/classes", "src/test/java/CalcTest.java")
            .build())
        .executable(ExecutableRule.named("java").exact("-cp", "target/classes:target/test-classes", "CalcTest").build())
        .executable(ExecutableRule.named("grep")
            .arguments(ArgumentRules.builder().flag("-q").operands(OperandRule.atLeast(ValueRule.string(), 1)).build())
            .build())
        .executable(ExecutableRule.named("echo").exact("done").build())
        .executable(ExecutableRule.named("cat").exact("README.md").build());
  }

  /** A kernel that only decides (the tests of saving and amending launch nothing): any backend will do. */
  static CommandKernel decidingKernel() {
    return CommandKernel.builder(ExecutionPolicies.of(policy().network(NetworkMode.HOST).allowUnisolatedFallback(true).build()))
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .build();
  }

  /** A kernel that runs every command under {@code backend}, with no network. */
  static CommandKernel kernel(ExecutionBackend backend) {
    return CommandKernel.builder(ExecutionPolicies.of(policy().network(NetworkMode.NONE).build()))
        .discoverBackends(false)
        .backend(backend)
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .build();
  }

  static String contract(String critic) {
    return "{\"version\": 1, \"writeScopes\": [\"src/**\", \"target/**\"]" + critic + "}";
  }

  static final String CONTRACT = contract("");
  static final String BLOCKING_GREP_CRITIC = ", \"critic\": {\"command\": \"grep -q workPlanId\", \"blocking\": true}";

  static String phase(String id, String scopes, String acceptance, String extra) {
    return "{\"id\": \"" + id + "\", \"goal\": \"goal of " + id + "\", \"writeScopes\": " + scopes + ", \"acceptance\": " + acceptance + extra + "}";
  }

  static String plan(String... phases) {
    return "{\"version\": 1, \"id\": \"calc\", \"title\": \"add Calc\", \"phases\": [" + String.join(", ", phases) + "]}";
  }

  static final String IMPL = phase("impl", "[\"src/main/**\", \"target/**\"]", "[\"" + JavaProject.COMPILE_MAIN + "\"]", "");
  static final String TESTS = phase("tests", "[\"src/test/**\", \"target/**\"]",
      "[\"" + JavaProject.COMPILE_TEST + "\", \"" + JavaProject.RUN_TEST + "\"]", ", \"dependsOn\": [\"impl\"]");
  static final String TWO_PHASES = plan(IMPL, TESTS);
}
