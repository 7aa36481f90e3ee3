package dev.capability.integrations.springai;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The operator's {@code capability.*} properties, from which {@link CapabilityAutoConfiguration}
 * builds the kernel, the runtime and the tools. Everything here is the host's: the model never
 * chooses the policy, the repository, the backend or an approval. docs/integrations.md lists them.
 *
 * @param policyPath the execution policy file: absolute, canonical, outside the repository, owned
 *     by this user and writable by no one else (checked by the kernel's loader at startup); the
 *     auto-configuration does nothing without it
 * @param repository the directory every command runs in and the policy must lie outside of
 * @param backend the one backend commands and capabilities may use (for example {@code bwrap});
 *     null for the kernel's rule, the strongest available sandbox
 * @param effectPolicyPath the effect policy capability runs are decided under (a regular file no one
 *     else may write); null for deny-all
 * @param capabilities capability name to package directory: what {@code run_capability} may run;
 *     the capability runtime is built only when there is at least one
 * @param preApprovedPlans the capability plan fingerprints the operator approved in advance
 */
@ConfigurationProperties(CapabilityProperties.PREFIX)
public record CapabilityProperties(
    @Nullable String policyPath,
    @Nullable String repository,
    @Nullable String backend,
    @Nullable String effectPolicyPath,
    @DefaultValue Map<String, String> capabilities,
    @DefaultValue List<String> preApprovedPlans) {
  /** The prefix of every property. */
  public static final String PREFIX = "capability";

  public CapabilityProperties {
    // Sorted, so that run_capability's schema lists the names in the same order on every start.
    capabilities = Collections.unmodifiableMap(new TreeMap<>(capabilities));
    preApprovedPlans = List.copyOf(preApprovedPlans);
  }
}
