package dev.capability.integrations.tools;

import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.integrations.tools.internal.ToolSet;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.workflow.Assumptions;
import dev.capability.workflow.WorkPlans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The tools an agent gets on one repository, built from what the host configured: its {@link
 * CommandKernel} (and with it the operator policy), and optionally a {@link CapabilityRuntime} with
 * the capabilities it offers and the plans it pre-approved, and the repository's {@link WorkPlans}.
 *
 * <pre>{@code
 * AgentTools tools = AgentTools.builder(kernel, repository)
 *     .capabilities(runtime)
 *     .capability("word-count", CapabilityPackages.open(packageDir))
 *     .build();
 * for (AgentTool tool : tools.all()) { ... hand tool to the agent framework ... }
 * }</pre>
 *
 * <p>The tools are {@value #RUN_COMMAND} and {@value #CHECK_COMMAND}; {@value #RUN_CAPABILITY}
 * when a runtime is given; {@value #SAVE_PLAN} and {@value #VERIFY_PHASE} when work plans are.
 * While a work plan is in force, every command runs and is checked under the contract, the active
 * phase and any open correction as well as the operator policy, as {@code phase verify} applies
 * them. The model never chooses the policy, the repository, the backend, an approval or a timeout.
 *
 * <p>The tools own nothing: the host closes the kernel and the runtime. They may be called
 * concurrently when the kernel, runtime and work plans may.
 */
public final class AgentTools {
  /** The tool that runs a command. */
  public static final String RUN_COMMAND = "run_command";
  /** The tool that says whether a command would be allowed, and if not why, running nothing. */
  public static final String CHECK_COMMAND = "check_command";
  /** The tool that plans and runs a registered capability. */
  public static final String RUN_CAPABILITY = "run_capability";
  /** The tool that saves the work plan. */
  public static final String SAVE_PLAN = "save_plan";
  /** The tool that verifies the active phase. */
  public static final String VERIFY_PHASE = "verify_phase";

  /** The most UTF-8 bytes one call's arguments may have: 64 KiB. */
  public static final int MAX_ARGUMENTS_BYTES = 64 << 10;
  /** The most words a command's argv may have. */
  public static final int MAX_ARGV = 1024;
  /** The most of each output stream {@value #RUN_COMMAND} returns; the whole stream's SHA-256 is in the result. */
  public static final int MAX_RETURNED_OUTPUT = 64 << 10;

  private static final Pattern CAPABILITY_NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  private final List<AgentTool> tools;

  private AgentTools(List<AgentTool> tools) {
    this.tools = List.copyOf(tools);
  }

  /**
   * A builder for the tools on {@code repository}, run by {@code kernel}.
   *
   * @param kernel the host's kernel, built on the operator policy loaded for {@code repository}
   * @param repository the repository every command runs in: an existing directory
   */
  public static Builder builder(CommandKernel kernel, Path repository) {
    return new Builder(kernel, repository);
  }

  /** Every tool, in a stable order: commands, then the capability tool, then the work-plan tools. */
  public List<AgentTool> all() {
    return tools;
  }

  /** The tool called {@code name}, if there is one. */
  public Optional<AgentTool> named(String name) {
    return tools.stream().filter(tool -> tool.name().equals(name)).findFirst();
  }

  /** What {@link AgentTools} is built from. */
  public static final class Builder {
    private final CommandKernel kernel;
    private final Path repository;
    private @Nullable CapabilityRuntime runtime;
    private final Map<String, CapabilityPackage> capabilities = new LinkedHashMap<>();
    private final Set<String> preApprovedPlans = new LinkedHashSet<>();
    private @Nullable WorkPlans workPlans;
    private @Nullable Assumptions assumptions;

    private Builder(CommandKernel kernel, Path repository) {
      this.kernel = Objects.requireNonNull(kernel, "kernel");
      this.repository = Objects.requireNonNull(repository, "repository").toAbsolutePath().normalize();
    }

    /**
     * Offers {@value #RUN_CAPABILITY}, running on {@code runtime} (its effect policy, executor and
     * evidence store are the host's). The capabilities it may run are those given to {@link
     * #capability}.
     */
    public Builder capabilities(CapabilityRuntime runtime) {
      this.runtime = Objects.requireNonNull(runtime, "runtime");
      return this;
    }

    /**
     * Lets the model run {@code pkg} by {@code name}: the model names a capability, never a path.
     *
     * @param name lower-case letters, digits, '.', '_' and '-', at most 64, starting with a letter or digit
     * @throws IllegalArgumentException when the name is malformed or given twice
     */
    public Builder capability(String name, CapabilityPackage pkg) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(pkg, "pkg");
      if (!CAPABILITY_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("capability name '" + name + "' must match " + CAPABILITY_NAME.pattern());
      }
      if (capabilities.putIfAbsent(name, pkg) != null) {
        throw new IllegalArgumentException("capability '" + name + "' is registered twice");
      }
      return this;
    }

    /**
     * The plan fingerprints the host approved in advance. A plan that needs an approval (a mutating
     * or open-world effect) runs only when its fingerprint is here; otherwise {@value
     * #RUN_CAPABILITY} answers {@link AgentToolCodes#APPROVAL_NOT_PREAUTHORIZED} before anything
     * runs or is recorded. The runtime's own effect policy still decides every run.
     */
    public Builder preApprovedPlans(Collection<String> fingerprints) {
      for (String fingerprint : fingerprints) {
        preApprovedPlans.add(Objects.requireNonNull(fingerprint, "fingerprint"));
      }
      return this;
    }

    /**
     * Offers {@value #SAVE_PLAN} and {@value #VERIFY_PHASE} on {@code plans} (built for the same
     * repository), and narrows every command to the contract and the active phase.
     */
    public Builder workPlans(WorkPlans plans) {
      this.workPlans = Objects.requireNonNull(plans, "plans");
      return this;
    }

    /** Narrows every command to the open corrections of the active phase as well (needs {@link #workPlans}). */
    public Builder assumptions(Assumptions assumptions) {
      this.assumptions = Objects.requireNonNull(assumptions, "assumptions");
      return this;
    }

    /**
     * @throws IllegalStateException when the repository is not a directory, capabilities were
     *     registered without a runtime or a runtime without capabilities, or assumptions were given
     *     without work plans
     */
    public AgentTools build() {
      if (!Files.isDirectory(repository)) {
        throw new IllegalStateException("the repository " + repository + " is not a directory");
      }
      if (runtime == null && !capabilities.isEmpty()) {
        throw new IllegalStateException("capabilities " + capabilities.keySet() + " were registered without a runtime (capabilities(runtime))");
      }
      if (runtime != null && capabilities.isEmpty()) {
        throw new IllegalStateException("a runtime was given without a capability to offer (capability(name, pkg))");
      }
      if (workPlans == null && assumptions != null) {
        throw new IllegalStateException("assumptions narrow commands only under a work plan (workPlans(plans))");
      }
      return new AgentTools(new ToolSet(kernel, repository, runtime, new LinkedHashMap<>(capabilities), Set.copyOf(preApprovedPlans),
          workPlans, assumptions).tools());
    }
  }
}
