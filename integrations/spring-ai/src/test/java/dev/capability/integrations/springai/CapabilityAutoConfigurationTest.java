package dev.capability.integrations.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.integrations.springai.internal.CapabilityFailureAnalyzer;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.policy.PolicyCodes;
import dev.capability.kernel.core.Backends;
import dev.capability.kernel.core.CommandKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport.ConditionAndOutcomes;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration in a real Spring context, from properties, with the kernel's policy loader. */
class CapabilityAutoConfigurationTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(CapabilityAutoConfiguration.class));

  @TempDir Path temp;
  private PolicyFixture fixture;

  @BeforeEach
  void createRepositoryAndPolicy() throws Exception {
    fixture = PolicyFixture.create(temp);
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void createsNothingWithoutThePolicyPathAndTheConditionReportSaysWhy() {
    runner.withPropertyValues("capability.repository=" + fixture.repository).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).doesNotHaveBean(CommandKernel.class);
      assertThat(context).doesNotHaveBean(CapabilityRuntime.class);
      assertThat(context).doesNotHaveBean(AgentTools.class);
      assertThat(context).doesNotHaveBean(CapabilityToolCallbacks.class);
      assertThat(context.getBeansOfType(ToolCallback.class)).isEmpty();

      ConditionAndOutcomes outcomes = ConditionEvaluationReport.get(context.getBeanFactory())
          .getConditionAndOutcomesBySource().get(CapabilityAutoConfiguration.class.getName());
      assertThat(outcomes.isFullMatch()).isFalse();
      assertThat(outcomes).anySatisfy(outcome -> {
        assertThat(outcome.getOutcome().isMatch()).isFalse();
        assertThat(outcome.getOutcome().getMessage()).contains("capability.policy-path").contains("did not find property");
      });
    });
  }

  @Test
  void createsNothingWithoutSpringAiOnTheClassPathEvenWithAPolicy() {
    runner.withClassLoader(new FilteredClassLoader(ToolCallback.class)).withPropertyValues(fixture.properties()).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).doesNotHaveBean(CommandKernel.class);
      assertThat(context).doesNotHaveBean(CapabilityToolCallbacks.class);
      ConditionAndOutcomes outcomes = ConditionEvaluationReport.get(context.getBeanFactory())
          .getConditionAndOutcomesBySource().get(CapabilityAutoConfiguration.class.getName());
      assertThat(outcomes).anySatisfy(outcome -> assertThat(outcome.getOutcome().getMessage()).contains(ToolCallback.class.getName()));
    });
  }

  @Test
  void aGroupWritablePolicyStopsStartupWithThePolicyError() throws Exception {
    Files.setPosixFilePermissions(fixture.policy, PosixFilePermissions.fromString("rw--w----"));

    runner.withPropertyValues(fixture.properties()).run(context -> {
      assertThat(context).hasFailed();
      PolicyException refused = rootPolicyException(context.getStartupFailure());
      assertThat(refused.code()).isEqualTo(PolicyCodes.POLICY_WRITABLE_BY_OTHERS);
      assertThat(refused.getMessage()).startsWith(PolicyCodes.POLICY_WRITABLE_BY_OTHERS + ": capability.policy-path " + fixture.policy);
      assertThat(context.getStartupFailure()).hasMessageContaining(PolicyCodes.POLICY_WRITABLE_BY_OTHERS);

      FailureAnalysis analysis = new CapabilityFailureAnalyzer().analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).isEqualTo(refused.getMessage());
      assertThat(analysis.getAction()).contains("capability.policy-path").contains("no one else may write");
    });
  }

  @Test
  void aPolicyInsideTheRepositoryStopsStartupWithThePolicyError() throws Exception {
    Path inside = fixture.repository.resolve("policy.json");
    Files.copy(fixture.policy, inside);
    Files.setPosixFilePermissions(inside, PosixFilePermissions.fromString("rw-------"));

    runner.withPropertyValues("capability.policy-path=" + inside, "capability.repository=" + fixture.repository).run(context -> {
      assertThat(context).hasFailed();
      assertThat(rootPolicyException(context.getStartupFailure()).code()).isEqualTo(PolicyCodes.POLICY_INSIDE_REPOSITORY);
      assertThat(context.getStartupFailure()).hasMessageContaining(PolicyCodes.POLICY_INSIDE_REPOSITORY);
    });
  }

  @Test
  void anInvalidPolicyStopsStartupWithThePolicyError() throws Exception {
    Files.writeString(fixture.policy, "{\"version\": 1, \"executables\": {\"git\": {\"name\": \"git\", \"arguments\": {\"anything\": true}}}}");

    runner.withPropertyValues(fixture.properties()).run(context -> {
      assertThat(context).hasFailed();
      assertThat(rootPolicyException(context.getStartupFailure()).code()).isEqualTo(PolicyCodes.POLICY_INVALID);
      assertThat(context.getStartupFailure()).hasMessageContaining("unknown property \"anything\"");
    });
  }

  @Test
  void aPolicyWithoutARepositoryStopsStartupNamingTheProperty() {
    runner.withPropertyValues("capability.policy-path=" + fixture.policy).run(context -> {
      assertThat(context).hasFailed();
      CapabilityException refused = rootCapabilityException(context.getStartupFailure());
      assertThat(refused.code()).isEqualTo(SpringAiCodes.CONFIG_INVALID);
      assertThat(refused.getMessage()).contains("capability.repository is not set");
      assertThat(new CapabilityFailureAnalyzer().analyze(context.getStartupFailure()).getAction()).contains("capability.* properties");
    });
  }

  @Test
  void aBackendThatIsNotInstalledStopsStartupNamingTheInstalledOnes() {
    runner.withPropertyValues(fixture.properties("capability.backend=no-such-backend")).run(context -> {
      assertThat(context).hasFailed();
      CapabilityException refused = rootCapabilityException(context.getStartupFailure());
      assertThat(refused.code()).isEqualTo(SpringAiCodes.CONFIG_INVALID);
      assertThat(refused.getMessage()).contains("capability.backend 'no-such-backend' is not installed").contains("bwrap");
    });
  }

  @Test
  void aGoodPolicyGivesTheKernelAndTheCommandToolsAndNoRuntimeWithoutCapabilities() {
    BWRAP.backend();
    runner.withPropertyValues(fixture.properties("capability.backend=bwrap")).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).hasSingleBean(CommandKernel.class);
      assertThat(context).hasSingleBean(AgentTools.class);
      assertThat(context.getBean(CommandKernel.class).policy().source()).isEqualTo(fixture.policy.toString());
      assertThat(context.getBean(CommandKernel.class).backends()).extracting(status -> status.id()).containsExactly("bwrap");
      assertThat(toolNames(context.getBean(CapabilityToolCallbacks.class))).containsExactly(AgentTools.RUN_COMMAND, AgentTools.CHECK_COMMAND);
      // Nothing Spring AI's MCP server starter or tool resolver would publish on its own.
      assertThat(context).doesNotHaveBean(ToolCallback.class);
      assertThat(context).doesNotHaveBean(ToolCallbackProvider.class);

      assertThat(context).doesNotHaveBean(CapabilityRuntime.class);
      assertThat(context).doesNotHaveBean(Backends.class);
      ConditionAndOutcomes runtime = ConditionEvaluationReport.get(context.getBeanFactory())
          .getConditionAndOutcomesBySource().get(CapabilityAutoConfiguration.class.getName() + "#capabilityRuntime");
      assertThat(runtime).anySatisfy(outcome -> assertThat(outcome.getOutcome().getMessage()).contains("capability.capabilities[NAME]"));
    });
  }

  @Test
  void capabilitiesBringTheRuntimeAndRunCapabilityOffersThemByName() {
    BWRAP.backend();
    runner.withPropertyValues(fixture.properties("capability.backend=bwrap", "capability.capabilities[echo]=" + fixture.capability))
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(CommandKernel.class);
          assertThat(context).hasSingleBean(CapabilityRuntime.class);
          assertThat(context).hasSingleBean(Backends.class);
          assertThat(context.getBean(Backends.class).statuses()).extracting(status -> status.id()).containsExactly("bwrap");
          CapabilityToolCallbacks callbacks = context.getBean(CapabilityToolCallbacks.class);
          assertThat(toolNames(callbacks)).containsExactly(AgentTools.RUN_COMMAND, AgentTools.CHECK_COMMAND, AgentTools.RUN_CAPABILITY);
          assertThat(callbacks.asList().get(2).getToolDefinition().inputSchema()).contains("\"enum\": [\"echo\"]");
        });
  }

  @Test
  void aCapabilityPackageThatCannotBeOpenedStopsStartup() {
    BWRAP.backend();
    runner.withPropertyValues(fixture.properties("capability.backend=bwrap", "capability.capabilities[missing]=" + temp.resolve("missing")))
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(rootCapabilityException(context.getStartupFailure()).getMessage()).contains(temp.resolve("missing").toString());
        });
  }

  private static List<String> toolNames(CapabilityToolCallbacks callbacks) {
    return callbacks.asList().stream().map(callback -> callback.getToolDefinition().name()).toList();
  }

  private static PolicyException rootPolicyException(Throwable failure) {
    return (PolicyException) causes(failure, PolicyException.class);
  }

  private static CapabilityException rootCapabilityException(Throwable failure) {
    return (CapabilityException) causes(failure, CapabilityException.class);
  }

  private static Throwable causes(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return cause;
      }
    }
    throw new AssertionError("no " + type.getSimpleName() + " in the causes of " + failure, failure);
  }
}
