package dev.capability.integrations.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.integrations.tools.AgentToolCodes;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The operator's capability properties in force through the callbacks: a plan needing an approval
 * runs only when {@code capability.pre-approved-plans} lists it and the effect policy of {@code
 * capability.effect-policy-path} grants it; the model can approve nothing.
 */
class CapabilityApprovalTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INPUT = "{\"text\": \"hi\"}";
  private static final String CALL = "{\"capability\": \"reflecting\", \"input\": " + INPUT + "}";

  @TempDir Path temp;
  private PolicyFixture fixture;

  @BeforeEach
  void createFixture() throws Exception {
    BWRAP.backend();
    fixture = PolicyFixture.create(temp);
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  private ApplicationContextRunner runner(String... more) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(CapabilityAutoConfiguration.class))
        .withPropertyValues(fixture.properties("capability.backend=bwrap", "capability.capabilities[reflecting]=" + fixture.reflecting))
        .withPropertyValues(more);
  }

  @Test
  void aPlanNeedingAnApprovalIsAToolErrorUntilTheOperatorPreApprovesItAndThenTheEffectPolicyDecides() {
    AtomicReference<String> fingerprint = new AtomicReference<>();
    runner("capability.effect-policy-path=" + fixture.effectPolicy).run(context -> {
      fingerprint.set(context.getBean(CapabilityRuntime.class).plan(CapabilityPackages.open(fixture.reflecting), INPUT).fingerprint());

      JsonNode refused = call(context.getBean(CapabilityToolCallbacks.class));

      assertThat(refused.at("/error/code").asText()).isEqualTo(AgentToolCodes.APPROVAL_NOT_PREAUTHORIZED);
      assertThat(refused.at("/error/message").asText()).contains(fingerprint.get());
    });

    runner("capability.effect-policy-path=" + fixture.effectPolicy, "capability.pre-approved-plans=" + fingerprint.get()).run(context -> {
      JsonNode receipt = call(context.getBean(CapabilityToolCallbacks.class));

      assertThat(receipt.path("status").asText()).as(receipt.toString()).isEqualTo("SUCCEEDED");
      assertThat(receipt.path("fingerprint").asText()).isEqualTo(fingerprint.get());
      assertThat(receipt.path("grantedEffects").toString()).contains("code.dynamic");
    });

    // Without the effect policy, the plan under the runtime's deny-all (a plan's fingerprint covers
    // the policy it was planned under) is pre-approved, and the runtime refuses it all the same.
    runner().run(context -> fingerprint.set(
        context.getBean(CapabilityRuntime.class).plan(CapabilityPackages.open(fixture.reflecting), INPUT).fingerprint()));
    runner("capability.pre-approved-plans=" + fingerprint.get()).run(context -> {
      JsonNode denied = call(context.getBean(CapabilityToolCallbacks.class));

      assertThat(denied.path("status").asText()).as(denied.toString()).isEqualTo("DENIED");
      assertThat(denied.path("layer").asText()).isEqualTo("effect-policy");
      assertThat(denied.at("/receipt/status").asText()).isEqualTo("REFUSED");
    });
  }

  @Test
  void anEffectPolicyOthersMayWriteStopsStartup() throws Exception {
    Files.setPosixFilePermissions(fixture.effectPolicy, PosixFilePermissions.fromString("rw-rw----"));

    runner("capability.effect-policy-path=" + fixture.effectPolicy).run(context -> {
      assertThat(context).hasFailed();
      Throwable cause = context.getStartupFailure();
      while (!(cause instanceof CapabilityException) && cause.getCause() != null) {
        cause = cause.getCause();
      }
      assertThat(cause).isInstanceOf(CapabilityException.class);
      assertThat(((CapabilityException) cause).code()).isEqualTo(CapabilityCodes.POLICY_FILE_INVALID);
      assertThat(cause.getMessage()).contains("chmod go-w");
    });
  }

  private static JsonNode call(CapabilityToolCallbacks callbacks) throws Exception {
    ToolCallback runCapability = callbacks.asList().stream()
        .filter(callback -> callback.getToolDefinition().name().equals(AgentTools.RUN_CAPABILITY))
        .findFirst()
        .orElseThrow();
    return JSON.readTree(runCapability.call(CALL));
  }
}
