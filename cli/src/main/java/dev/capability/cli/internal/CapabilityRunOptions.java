package dev.capability.cli.internal;

import dev.capability.capability.runtime.Approval;
import dev.capability.capability.runtime.ApprovalRequest;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityExecutors;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectPolicies;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.kernel.api.CapabilityException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The options {@code plan} and {@code run} share: the package, the input, and which executor, backend and policy. */
final class CapabilityRunOptions {
  @Option(names = "--input", required = true, paramLabel = "JSON", description = "The input, a JSON text.")
  String input;

  @Parameters(paramLabel = "PKG", description = "The package: a directory, jar, zip or tgz.")
  Path pkg;

  @Option(names = "--executor", paramLabel = "ID", description = "child-jvm (the default) or in-process (no boundary: trusted code only).")
  String executor = CapabilityExecutors.CHILD_JVM;

  @Option(names = "--backend", paramLabel = "ID",
      description = "The kernel backend the child JVM runs under (default: the strongest available sandbox, chosen as for exec; 'process' is no boundary and only runs when named).")
  String backend;

  @Option(names = "--policy", paramLabel = "POLICY",
      description = "deny-all (the default), permissive, or the path of an effect policy file (docs/schemas/effect-policy.schema.json).")
  String policy = "deny-all";

  @Option(names = "--approve", paramLabel = "EFFECT=SCOPE", description = "Under permissive, approve this effect (repeatable), e.g. filesystem.write=notes.")
  List<String> approvals = new ArrayList<>();

  @Option(names = "--allow-private-address", paramLabel = "NAME",
      description = "Let the egress proxy connect a granted network.connect host NAME to a loopback or private address, for the operator's own services (repeatable; child-jvm only; bound into the plan).")
  List<String> privateAddressNames = new ArrayList<>();

  @Option(names = "--repo", paramLabel = "DIR",
      description = "The directory effect scopes are relative to, whose ledger records the run (default: the working directory).")
  Path repository;

  Path repository() {
    return (repository == null ? Path.of("") : repository).toAbsolutePath().normalize();
  }

  CapabilityRuntime runtime() {
    return runtimeBuilder().build();
  }

  /** The runtime these options name, for a command to add to (run adds the ledger). */
  CapabilityRuntime.Builder runtimeBuilder() {
    CapabilityRuntime.Builder builder = CapabilityRuntime.builder().policy(effectPolicy());
    Set<String> privateNames = Set.copyOf(privateAddressNames);
    if (!executor.equals(CapabilityExecutors.CHILD_JVM) && !privateNames.isEmpty()) {
      throw new CapabilityException(
          CapabilityCodes.EXECUTOR_SETTING_INVALID, "--allow-private-address applies to the child-jvm executor's egress proxy only");
    }
    try {
      if (executor.equals(CapabilityExecutors.CHILD_JVM) && backend == null) {
        builder.executor(CapabilityExecutors.childJvm(repository(), privateNames));
      } else if (executor.equals(CapabilityExecutors.CHILD_JVM)) {
        // Naming the process backend on the command line is the explicit request it needs.
        builder.executor(CapabilityExecutors.childJvm(backend, backend.equals("process"), repository(), privateNames));
      } else {
        builder.executor(executor);
      }
    } catch (IllegalArgumentException e) {
      throw new CapabilityException(CapabilityCodes.EXECUTOR_SETTING_INVALID, "--allow-private-address: " + e.getMessage(), e);
    }
    return builder;
  }

  private EffectPolicy effectPolicy() {
    if (!policy.equals("permissive") && !approvals.isEmpty()) {
      throw new CapabilityException(CapabilityCodes.APPROVAL_INVALID, "--approve needs --policy permissive");
    }
    return switch (policy) {
      case "deny-all" -> EffectPolicies.denyAll();
      case "permissive" -> {
        Set<Effect> approved = approvedOnCommandLine();
        yield EffectPolicies.permissive(request -> answer(request, approved));
      }
      default -> EffectPolicies.load(Path.of(policy));
    };
  }

  private Set<Effect> approvedOnCommandLine() {
    Set<Effect> approved = new HashSet<>();
    for (String approval : approvals) {
      int equals = approval.indexOf('=');
      if (equals <= 0) {
        throw new CapabilityException(CapabilityCodes.APPROVAL_INVALID, "--approve '" + approval + "' is not EFFECT=SCOPE");
      }
      approved.add(Effect.of(approval.substring(0, equals), approval.substring(equals + 1)));
    }
    return approved;
  }

  private static Approval answer(ApprovalRequest request, Set<Effect> approved) {
    return approved.containsAll(request.effects())
        ? Approval.grant(request)
        : Approval.refuse(
            request, "not approved on the command line: " + request.effects().stream().filter(e -> !approved.contains(e)).toList());
  }
}
