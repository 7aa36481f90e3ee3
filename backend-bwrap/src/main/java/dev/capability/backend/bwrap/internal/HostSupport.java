package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.EgressRelay;
import dev.capability.kernel.api.backend.IsolationCapability;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the probe found on this host: whether sandboxes can run at all and with what, the
 * capabilities that were verified, and for each one missing, why.
 *
 * @param setup how to launch, present when sandboxes can run here
 * @param summary a one-line description, or why sandboxes cannot run
 * @param capabilities the verified capabilities; empty when unavailable
 * @param diagnostics facts and, for each missing capability, the reason
 */
record HostSupport(
    Optional<Setup> setup,
    String summary,
    Set<IsolationCapability> capabilities,
    Map<String, String> diagnostics) {

  /**
   * Everything a launcher needs.
   *
   * @param tools the verified host programs
   * @param identity who sandboxes run as
   * @param flags the optional bwrap features that work
   * @param cgroup where run cgroups are made, when they are used
   * @param relay the egress relay for runs with filtered network, when it could be built and the
   *     network namespace works
   */
  record Setup(
      HostTools tools,
      SandboxIdentity identity,
      SandboxFlags flags,
      Optional<CgroupParent> cgroup,
      Optional<EgressRelay> relay) {
    Setup {
      Objects.requireNonNull(tools, "tools");
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(flags, "flags");
      Objects.requireNonNull(cgroup, "cgroup");
      Objects.requireNonNull(relay, "relay");
    }
  }

  HostSupport {
    Objects.requireNonNull(setup, "setup");
    Objects.requireNonNull(summary, "summary");
    capabilities =
        capabilities.isEmpty()
            ? Set.of()
            : Collections.unmodifiableSet(EnumSet.copyOf(capabilities));
    diagnostics = Collections.unmodifiableMap(new LinkedHashMap<>(diagnostics));
  }

  static HostSupport unavailable(String reason, Map<String, String> diagnostics) {
    return new HostSupport(Optional.empty(), reason, Set.of(), diagnostics);
  }

  boolean available() {
    return setup.isPresent();
  }
}
