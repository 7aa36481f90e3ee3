package dev.capability.cli.internal;

import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.util.Map;
import java.util.Set;

/**
 * What a probe learned about an available backend, standing in for it where a decision is made
 * and nothing runs ({@code capability check}): its id, capabilities and versions are what the
 * kernel's selection reads. It cannot launch.
 */
record ProbedBackend(String id, Set<IsolationCapability> capabilities, Map<String, String> versions, Map<String, String> diagnostics)
    implements ExecutionBackend {

  ProbedBackend {
    capabilities = Set.copyOf(capabilities);
    versions = Map.copyOf(versions);
    diagnostics = Map.copyOf(diagnostics);
  }

  /** Always throws: a description decides, it never runs a command. */
  @Override
  public LaunchResult launch(LaunchSpec spec) {
    throw new IllegalStateException("the " + id + " backend was described from a probe, for a decision; it cannot launch");
  }
}
