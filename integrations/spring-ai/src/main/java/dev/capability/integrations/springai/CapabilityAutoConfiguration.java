package dev.capability.integrations.springai;

import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.EffectPolicies;
import dev.capability.capability.runtime.ExecutorConfig;
import dev.capability.integrations.springai.internal.CapabilitiesConfigured;
import dev.capability.integrations.springai.internal.NamedBackend;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import dev.capability.kernel.api.store.DecisionStore;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.core.Backends;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import dev.capability.workflow.Assumptions;
import dev.capability.workflow.WorkPlans;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Builds the kernel, the capability runtime, the agent tools and their Spring AI callbacks from
 * the {@code capability.*} properties ({@link CapabilityProperties}), when the kernel, the agent
 * tools and Spring AI are on the class path and {@code capability.policy-path} is set; without
 * that property it creates nothing, and the condition report says so.
 *
 * <p>The execution policy is loaded through {@link ExecutionPolicies#load} with the repository,
 * so every check the kernel makes of a policy file applies: a policy the kernel refuses (writable
 * by others, inside the repository, not owned by this user, invalid) stops the application with
 * the {@link PolicyException} and its code in the message. There is no fallback policy.
 *
 * <p>The capability runtime (and with it {@code run_capability}) is built only when {@code
 * capability.capabilities} names a capability: a runtime needs an isolating executor, which an
 * application that only runs commands may not have.
 *
 * <p>Each bean backs off when the application defines its own. An {@link EvidenceStore}, {@link
 * DecisionStore} or {@link CapabilityEvidenceStore} bean (the ledger's {@code DeferredLedger} is
 * all three) records what runs; {@link WorkPlans} and {@link Assumptions} beans add the work-plan
 * tools.
 */
@AutoConfiguration
@ConditionalOnClass({CommandKernel.class, CapabilityRuntime.class, AgentTools.class, ToolCallback.class})
@ConditionalOnProperty(prefix = CapabilityProperties.PREFIX, name = "policy-path")
@EnableConfigurationProperties(CapabilityProperties.class)
public class CapabilityAutoConfiguration {
  /** The auto-configuration; Spring creates it. */
  public CapabilityAutoConfiguration() {}

  /**
   * The backends capabilities run on: only {@code capability.backend} when it is set, else every
   * backend on the class path. Only with capabilities; closed with the context.
   *
   * @throws CapabilityException {@link SpringAiCodes#CONFIG_INVALID} when the named backend is not
   *     installed or cannot run on this machine
   */
  @Bean
  @ConditionalOnMissingBean
  @Conditional(CapabilitiesConfigured.class)
  public Backends capabilityBackends(CapabilityProperties properties) {
    ClassLoader loader = CapabilityAutoConfiguration.class.getClassLoader();
    if (properties.backend() == null) {
      return Backends.discover(loader, BackendConfig.defaults());
    }
    return Backends.of(List.of(NamedBackend.provider(properties.backend(), loader)), BackendConfig.defaults());
  }

  /**
   * The kernel, on the operator policy loaded for {@code capability.repository}, restricted to
   * {@code capability.backend} when it is set. Closed with the context.
   *
   * @throws PolicyException when the kernel refuses the policy file; its message starts with the code
   * @throws CapabilityException {@link SpringAiCodes#CONFIG_INVALID} when the repository or the
   *     backend is missing or wrong
   */
  @Bean
  @ConditionalOnMissingBean
  public CommandKernel capabilityKernel(CapabilityProperties properties, ObjectProvider<EvidenceStore> evidence,
      ObjectProvider<DecisionStore> decisions) {
    Path repository = repository(properties);
    CommandKernel.Builder kernel = CommandKernel.builder(policy(properties, repository));
    if (properties.backend() != null) {
      ClassLoader loader = CapabilityAutoConfiguration.class.getClassLoader();
      kernel.discoverBackends(false).backend(NamedBackend.provider(properties.backend(), loader).create(BackendConfig.defaults()));
    }
    evidence.ifUnique(kernel::evidenceStore);
    decisions.ifUnique(kernel::decisionStore);
    return kernel.build();
  }

  /**
   * The capability runtime: the effect policy of {@code capability.effect-policy-path} (deny-all
   * without it), the strongest isolating executor, on {@link #capabilityBackends}. Only with
   * capabilities; closed with the context.
   *
   * @throws CapabilityException {@code ISOLATION_UNAVAILABLE} when no isolating executor can run
   *     here, {@code POLICY_FILE_INVALID} for an effect policy the runtime refuses
   */
  @Bean
  @ConditionalOnMissingBean
  @Conditional(CapabilitiesConfigured.class)
  public CapabilityRuntime capabilityRuntime(CapabilityProperties properties, Backends backends,
      ObjectProvider<CapabilityEvidenceStore> evidence) {
    Path repository = repository(properties);
    CapabilityRuntime.Builder runtime = CapabilityRuntime.builder()
        .policy(properties.effectPolicyPath() == null ? EffectPolicies.denyAll() : EffectPolicies.load(Path.of(properties.effectPolicyPath())))
        .executorConfig(ExecutorConfig.of(repository, backends));
    evidence.ifUnique(runtime::evidenceStore);
    return runtime.build();
  }

  /**
   * The agent tools on {@code capability.repository}: the command tools on the kernel, {@code
   * run_capability} when capabilities are configured and there is a runtime, with the packages of {@code capability.capabilities}
   * and the plans of {@code capability.pre-approved-plans}, and the work-plan tools when there are
   * {@link WorkPlans}.
   *
   * @throws CapabilityException the runtime's code for a capability package it cannot open
   */
  @Bean
  @ConditionalOnMissingBean
  public AgentTools capabilityAgentTools(CapabilityProperties properties, CommandKernel kernel, ObjectProvider<CapabilityRuntime> runtime,
      ObjectProvider<WorkPlans> workPlans, ObjectProvider<Assumptions> assumptions) {
    AgentTools.Builder tools = AgentTools.builder(kernel, repository(properties));
    // An application's own runtime without capability properties offers nothing to run.
    if (!properties.capabilities().isEmpty()) {
      runtime.ifUnique(found -> {
        tools.capabilities(found).preApprovedPlans(properties.preApprovedPlans());
        for (Map.Entry<String, String> capability : properties.capabilities().entrySet()) {
          tools.capability(capability.getKey(), CapabilityPackages.open(Path.of(capability.getValue())));
        }
      });
    }
    workPlans.ifUnique(tools::workPlans);
    assumptions.ifUnique(tools::assumptions);
    return tools.build();
  }

  /** The agent tools as Spring AI tool callbacks, for a {@code ChatClient}. */
  @Bean
  @ConditionalOnMissingBean
  public CapabilityToolCallbacks capabilityToolCallbacks(AgentTools tools) {
    return CapabilityToolCallbacks.of(tools);
  }

  private static LoadedPolicy policy(CapabilityProperties properties, Path repository) {
    Path file = Path.of(Objects.requireNonNull(properties.policyPath(), "policyPath"));
    try {
      return ExecutionPolicies.load(file, repository);
    } catch (PolicyException e) {
      throw new PolicyException(e.code(), e.code() + ": capability.policy-path " + file + " was refused: " + e.getMessage(), e);
    }
  }

  private static Path repository(CapabilityProperties properties) {
    if (properties.repository() == null || properties.repository().isBlank()) {
      throw new CapabilityException(SpringAiCodes.CONFIG_INVALID,
          SpringAiCodes.CONFIG_INVALID + ": capability.repository is not set: name the directory the agent's commands run in");
    }
    try {
      Path repository = Path.of(properties.repository()).toRealPath();
      if (!Files.isDirectory(repository)) {
        throw new CapabilityException(SpringAiCodes.CONFIG_INVALID,
            SpringAiCodes.CONFIG_INVALID + ": capability.repository " + properties.repository() + " is not a directory");
      }
      return repository;
    } catch (IOException e) {
      throw new CapabilityException(SpringAiCodes.CONFIG_INVALID,
          SpringAiCodes.CONFIG_INVALID + ": capability.repository " + properties.repository() + " does not exist: " + e.getMessage(), e);
    }
  }
}
