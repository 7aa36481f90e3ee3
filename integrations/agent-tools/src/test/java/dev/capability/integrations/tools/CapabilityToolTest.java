package dev.capability.integrations.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.Approval;
import dev.capability.capability.runtime.CapabilityExecutors;
import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.EffectPolicies;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.TestPackages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run_capability on a real runtime whose child JVM runs under bwrap: the model names a capability
 * the host offers, never a path; a plan that needs an approval runs only when the host pre-approved
 * its fingerprint, and otherwise nothing runs and nothing is recorded.
 */
class CapabilityToolTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ENTRY = "com.example.Loader";
  private static final String SOURCE = """
      package com.example;
      public final class Loader implements dev.capability.capability.api.Capability {
        @Override
        public String execute(String in, dev.capability.capability.api.CapabilityContext context) {
          try {
            return "{\\"found\\":\\"" + Class.forName("java.lang.String").getName() + "\\"}";
          } catch (ClassNotFoundException e) {
            return "{}";
          }
        }
        @Override
        public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
      }
      """;
  private static final String INPUT = "{\"text\":\"x\"}";
  private static BackendGate bwrap;

  @TempDir Path base;
  private TestRepository repo;
  private CapabilityPackage reflecting;

  @BeforeAll
  static void open() {
    bwrap = TestRepository.bwrap();
  }

  @AfterAll
  static void close() {
    bwrap.close();
  }

  @BeforeEach
  void setUp() throws IOException {
    repo = TestRepository.create(base);
    byte[] jar = TestPackages.jar(Files.createDirectories(base.resolve("work")), Map.of(ENTRY, SOURCE), null, Map.of());
    // Reflection is an effect that needs an approval.
    reflecting = CapabilityPackages.open(TestPackages.directory(base.resolve("reflecting"), jar, ENTRY, "{\"code.dynamic\": [\"reflection\"]}"));
  }

  private CapabilityRuntime runtime(EffectPolicy policy) {
    bwrap.backend();
    return CapabilityRuntime.builder().policy(policy).executor(CapabilityExecutors.childJvm(base)).evidenceStore(repo.ledger).build();
  }

  private AgentTools tools(CapabilityRuntime runtime, Set<String> preApproved) {
    return AgentTools.builder(repo.kernel(bwrap), repo.repository)
        .capabilities(runtime)
        .capability("loader", reflecting)
        .preApprovedPlans(preApproved)
        .build();
  }

  private static JsonNode call(AgentTools tools, String arguments) throws IOException {
    return JSON.readTree(tools.named(AgentTools.RUN_CAPABILITY).orElseThrow().execute(arguments));
  }

  @Test
  void theSchemaListsTheOfferedCapabilitiesByName() throws IOException {
    try (CapabilityRuntime runtime = runtime(EffectPolicies.permissive(Approval::grant))) {
      AgentTool tool = tools(runtime, Set.of()).named(AgentTools.RUN_CAPABILITY).orElseThrow();
      assertThat(JSON.readTree(tool.inputSchema()).at("/properties/capability/enum").toString()).isEqualTo("[\"loader\"]");
    }
  }

  @Test
  void anUnknownCapabilityOrAPathIsAnErrorListingTheOfferedOnesAndNothingRuns() throws IOException {
    try (CapabilityRuntime runtime = runtime(EffectPolicies.permissive(Approval::grant))) {
      AgentTools tools = tools(runtime, Set.of());
      for (String name : List.of("nope", base.resolve("reflecting").toString())) {
        JsonNode result = call(tools, "{\"capability\": " + JSON.writeValueAsString(name) + ", \"input\": " + INPUT + "}");
        assertThat(result.at("/error/code").asText()).isEqualTo(AgentToolCodes.UNKNOWN_CAPABILITY);
        assertThat(result.at("/error/message").asText()).contains("[loader]");
      }
      assertThat(call(tools, "{\"capability\": \"loader\"}").at("/error/message").asText()).contains("'input' is required");
      assertThat(call(tools, "{\"capability\": [\"loader\"], \"input\": 1}").at("/error/code").asText()).isEqualTo(AgentToolCodes.INVALID_ARGUMENT);
    }
    assertThat(repo.ledgerFile()).as("nothing was recorded").isEmpty();
  }

  @Test
  void aPlanNeedingAnApprovalTheHostDidNotGiveIsRefusedBeforeAnythingRunsOrIsRecorded() throws IOException {
    String handlerAsked = "the host's approval handler was asked";
    java.util.concurrent.atomic.AtomicReference<String> asked = new java.util.concurrent.atomic.AtomicReference<>();
    try (CapabilityRuntime runtime = runtime(EffectPolicies.permissive(request -> {
      asked.set(handlerAsked);
      return Approval.grant(request);
    }))) {
      String fingerprint = runtime.plan(reflecting, INPUT).fingerprint();

      JsonNode result = call(tools(runtime, Set.of()), "{\"capability\": \"loader\", \"input\": " + INPUT + "}");

      assertThat(result.at("/error/code").asText()).isEqualTo(AgentToolCodes.APPROVAL_NOT_PREAUTHORIZED);
      assertThat(result.at("/error/message").asText()).contains(fingerprint).contains("code.dynamic(reflection)");
      assertThat(asked.get()).as("no model answers an approval, nor triggers the host's").isNull();
    }
    assertThat(repo.ledgerFile()).as("nothing was recorded").isEmpty();
  }

  @Test
  void aPreApprovedPlanRunsInTheChildJvmAndAnExpectedPlanMustMatch() throws IOException {
    try (CapabilityRuntime runtime = runtime(EffectPolicies.permissive(Approval::grant))) {
      String fingerprint = runtime.plan(reflecting, INPUT).fingerprint();
      AgentTools tools = tools(runtime, Set.of(fingerprint));

      JsonNode drift = call(tools, "{\"capability\": \"loader\", \"input\": " + INPUT + ", \"expectPlan\": \"" + "0".repeat(64) + "\"}");
      assertThat(drift.at("/error/code").asText()).as(drift.toString()).isNotBlank();
      assertThat(repo.ledgerFile()).isEmpty();

      JsonNode receipt = call(tools, "{\"capability\": \"loader\", \"input\": " + INPUT + ", \"expectPlan\": \"" + fingerprint + "\"}");
      assertThat(receipt.get("status").asText()).as(receipt.toString()).isEqualTo("SUCCEEDED");
      assertThat(receipt.get("fingerprint").asText()).isEqualTo(fingerprint);
      assertThat(receipt.at("/output").asText()).contains("java.lang.String");
    }
  }

  @Test
  void aPlanTheRuntimesPolicyRefusesIsADenialWithTheRuntimesCode() throws IOException {
    try (CapabilityRuntime runtime = runtime(EffectPolicies.denyAll())) {
      String fingerprint = runtime.plan(reflecting, INPUT).fingerprint();

      JsonNode result = call(tools(runtime, Set.of(fingerprint)), "{\"capability\": \"loader\", \"input\": " + INPUT + "}");

      assertThat(result.get("status").asText()).as(result.toString()).isEqualTo("DENIED");
      assertThat(result.get("layer").asText()).isEqualTo("effect-policy");
      assertThat(result.get("code").asText()).isNotBlank();
      assertThat(result.get("reason").asText()).isNotBlank();
      assertThat(result.at("/receipt/status").asText()).isEqualTo("REFUSED");
    }
  }

  @Test
  void theBuilderRefusesARuntimeWithoutCapabilitiesAndCapabilitiesWithoutARuntime() {
    try (CapabilityRuntime runtime = runtime(EffectPolicies.denyAll())) {
      assertThatThrownBy(() -> AgentTools.builder(repo.kernel(bwrap), repo.repository).capabilities(runtime).build())
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("without a capability");
    }
    assertThatThrownBy(
            () -> AgentTools.builder(repo.kernel(bwrap), repo.repository).capability("loader", reflecting).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("[loader]");
    assertThatThrownBy(
            () -> AgentTools.builder(repo.kernel(bwrap), repo.repository).capability("Loader Two", reflecting))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Loader Two");
  }
}
