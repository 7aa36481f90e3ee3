package dev.capability.backend.kubernetes.internal;

import java.util.Map;

/**
 * The labels on every pod and policy the backend creates, so that leftovers can be found and
 * attributed, and so that a run's policy selects exactly its pod.
 */
final class Labels {
  /** Marks an object as created by this SDK. */
  static final String SDK = "dev.capability/sdk";
  /** The run the object belongs to; the run's network policy selects its pod by it. */
  static final String RUN = "dev.capability/run";
  /** The machine (boot id and PID namespace) of the launching JVM. */
  static final String HOST = "dev.capability/host";
  /** The launching JVM: pid and start time. */
  static final String JVM = "dev.capability/jvm";

  /** Marks a pod or policy of {@code doctor}'s network policy probe, with {@link #NETWORK_POLICY_PROBE}. */
  static final String PROBE = "dev.capability/probe";
  /** The value of {@link #PROBE} on the network policy probe's objects. */
  static final String NETWORK_POLICY_PROBE = "network-policy";

  private Labels() {}

  static Map<String, String> forRun(String runId, HostJvm jvm) {
    return Map.of(SDK, "1", RUN, runId, HOST, jvm.host(), JVM, jvm.jvmLabel());
  }

  /** A run's labels and the probe's mark: the leak sweep removes them like a run's. */
  static Map<String, String> forNetworkPolicyProbe(String runId, HostJvm jvm) {
    return Map.of(SDK, "1", RUN, runId, HOST, jvm.host(), JVM, jvm.jvmLabel(), PROBE, NETWORK_POLICY_PROBE);
  }
}
