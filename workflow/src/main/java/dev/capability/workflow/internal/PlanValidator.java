package dev.capability.workflow.internal;

import static dev.capability.kernel.api.authority.AuthorityCodes.LAYER_WIDENS_OPERATOR;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.core.AuthorityLayers;
import dev.capability.kernel.core.CheckResult;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.workflow.Assurance;
import dev.capability.workflow.CriticConfig;
import dev.capability.workflow.Phase;
import dev.capability.workflow.PlanWarning;
import dev.capability.workflow.ProjectContract;
import dev.capability.workflow.VerificationKind;
import dev.capability.workflow.WorkPlan;
import dev.capability.workflow.WorkflowCodes;
import dev.capability.workflow.WorkflowException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything checked before a contract or a plan revision is stored: that the contract stays
 * inside the operator's policy and each phase inside the contract, that every command is
 * shell-free, not a no-op and allowed by the kernel under operator ∩ contract ∩ phase, and what
 * high assurance demands. Returns the warnings; refuses with a {@link WorkflowException}.
 */
public final class PlanValidator {
  private final CommandKernel kernel;
  private final Path repository;
  private final Optional<String> backendId;
  private final Optional<Set<List<String>>> listedCommands;

  public PlanValidator(CommandKernel kernel, Path repository, Optional<String> backendId, Optional<Set<List<String>>> listedCommands) {
    this.kernel = kernel;
    this.repository = repository;
    this.backendId = backendId;
    this.listedCommands = listedCommands;
  }

  /** Refuses a contract that widens the operator's policy or has a critic the kernel would not run. */
  public void validate(ProjectContract contract) {
    try {
      AuthorityLayers.requireWithin(kernel.policy(), List.of(contract.layer()), List.of(), repository);
    } catch (AuthorityException e) {
      throw new WorkflowException(
          e.code().equals(LAYER_WIDENS_OPERATOR) ? WorkflowCodes.CONTRACT_WIDENS_OPERATOR : WorkflowCodes.CONTRACT_INVALID,
          "the contract cannot narrow the operator's policy: " + e.getMessage(), e);
    }
    for (int i = 0; i < contract.protectedPaths().size(); i++) {
      try {
        AuthorityLayers.requireWithin(kernel.policy(), List.of(), List.of(contract.protectedPaths().get(i)), repository);
      } catch (AuthorityException e) {
        throw new WorkflowException(WorkflowCodes.CONTRACT_INVALID, "the contract at /protectedPaths/" + i + ": " + e.getMessage(), e);
      }
    }
    Optional<CriticConfig> critic = contract.critic();
    if (critic.isPresent()) {
      ParsedCommand command = ParsedCommand.parse("/critic/command", critic.get().command());
      refuseNoOp(command);
      requireAllowed(command, List.of(contract.layer()));
    }
  }

  /**
   * The warnings of {@code plan} under {@code contract}, after refusing anything that may not be stored.
   *
   * @throws WorkflowException {@code PLAN_WIDENS_CONTRACT}, {@code PLAN_COMMAND_SHELL_SYNTAX},
   *     {@code PLAN_COMMAND_NO_OP}, {@code PLAN_COMMAND_NOT_ALLOWED}, {@code PLAN_COMMAND_NOT_EXACT},
   *     {@code CRITIC_REQUIRED}, {@code CONTRACT_WIDENS_OPERATOR}
   */
  public List<PlanWarning> validate(ProjectContract contract, WorkPlan plan) {
    validate(contract);
    boolean high = contract.assurance() == Assurance.HIGH;
    if (high && !contract.critic().map(CriticConfig::blocking).orElse(false)) {
      throw new WorkflowException(WorkflowCodes.CRITIC_REQUIRED,
          "the contract demands high assurance, which needs a blocking critic; the contract has " + (contract.critic().isPresent() ? "a non-blocking one" : "none"));
    }
    Map<String, List<ParsedCommand>> evidence = new LinkedHashMap<>();
    // A phase layer is its write scopes and nothing else, so phases with the same scopes are
    // inside the contract alike: each distinct list is searched once (an automaton search each).
    Set<List<String>> scopesInside = new HashSet<>();
    for (int i = 0; i < plan.phases().size(); i++) {
      Phase phase = plan.phases().get(i);
      String at = "/phases/" + i;
      if (!scopesInside.contains(phase.writeScopes())) {
        requireInsideContract(contract, phase, at);
        scopesInside.add(phase.writeScopes());
      }
      List<AuthorityLayer> layers = List.of(contract.layer(), phase.layer());
      List<ParsedCommand> commands = new ArrayList<>();
      for (int j = 0; j < phase.acceptance().size(); j++) {
        commands.add(ParsedCommand.parse(at + "/acceptance/" + j, phase.acceptance().get(j)));
      }
      int acceptanceCount = commands.size();
      for (int j = 0; j < phase.selectiveTests().size(); j++) {
        commands.add(ParsedCommand.parse(at + "/selectiveTests/" + j, phase.selectiveTests().get(j)));
      }
      if (phase.fullSuite().isPresent()) {
        commands.add(ParsedCommand.parse(at + "/fullSuite", phase.fullSuite().get()));
      }
      for (ParsedCommand command : commands) {
        if (listedCommands.isPresent() && !listedCommands.get().contains(command.argv())) {
          throw new WorkflowException(WorkflowCodes.PLAN_COMMAND_NOT_LISTED, "the command at " + command.pointer() + " ("
              + command.command() + ") is not one of the commands the operator listed for this host"
              + (listedCommands.get().isEmpty() ? " (none are listed)" : ": " + listedCommands.get()));
        }
        refuseNoOp(command);
        Decision decision = requireAllowed(command, layers);
        if (high && !decision.rule().contains(".exact[")) {
          throw new WorkflowException(WorkflowCodes.PLAN_COMMAND_NOT_EXACT, "the command at " + command.pointer() + " ("
              + command.command() + ") is allowed by the operator's rule " + decision.rule() + ", not by one of its exact argument lists;"
              + " high assurance accepts only commands the operator wrote out in full");
        }
      }
      evidence.put(phase.id(), commands.subList(0, acceptanceCount));
    }
    return warnings(contract, plan, evidence);
  }

  /**
   * Holds the phase inside the contract. Inside the operator's policy it then is too (the contract
   * was held there); the kernel's decision of each command combines the layers again and refuses
   * a scope through a symbolic link.
   */
  private void requireInsideContract(ProjectContract contract, Phase phase, String at) {
    try {
      AuthorityLayers.requireWithin(contract.layer(), phase.layer());
    } catch (AuthorityException e) {
      throw new WorkflowException(
          e.code().equals(LAYER_WIDENS_OPERATOR) ? WorkflowCodes.PLAN_WIDENS_CONTRACT : WorkflowCodes.WORK_PLAN_INVALID,
          "the work plan at " + at + "/writeScopes: " + e.getMessage(), e);
    }
  }

  private static void refuseNoOp(ParsedCommand command) {
    if (EvidenceTools.isNoOp(command.argv())) {
      throw new WorkflowException(WorkflowCodes.PLAN_COMMAND_NO_OP, "the command at " + command.pointer() + " (" + command.command()
          + ") succeeds whatever the code is; it is no evidence");
    }
  }

  private Decision requireAllowed(ParsedCommand command, List<AuthorityLayer> layers) {
    CheckResult check;
    try {
      ExecutionRequest.Builder request = ExecutionRequest.argv(command.argv()).repository(repository);
      layers.forEach(request::layer);
      backendId.ifPresent(request::backend);
      check = kernel.check(request.build());
    } catch (AuthorityException e) {
      throw new WorkflowException(
          e.code().equals(LAYER_WIDENS_OPERATOR) ? WorkflowCodes.PLAN_WIDENS_CONTRACT : WorkflowCodes.WORK_PLAN_INVALID,
          "the layers of the command at " + command.pointer() + " cannot be combined: " + e.getMessage(), e);
    } catch (CapabilityException e) {
      throw new WorkflowException(WorkflowCodes.PLAN_COMMAND_NOT_ALLOWED, "the command at " + command.pointer() + " (" + command.command()
          + ") cannot be decided: " + e.code() + ": " + e.getMessage(), e);
    }
    Decision decision = check.decision();
    if (!decision.allowed()) {
      throw new WorkflowException(WorkflowCodes.PLAN_COMMAND_NOT_ALLOWED, "the command at " + command.pointer() + " (" + command.command()
          + ") is refused by the " + decision.layer() + " layer, rule " + decision.rule() + " (" + decision.code() + "): " + decision.message());
    }
    return decision;
  }

  private static List<PlanWarning> warnings(ProjectContract contract, WorkPlan plan, Map<String, List<ParsedCommand>> evidence) {
    Set<List<String>> projectChecks = new HashSet<>();
    contract.evidence().values().forEach(commands -> commands.forEach(command -> {
      try {
        projectChecks.add(ParsedCommand.parse("/evidence", command).argv());
      } catch (WorkflowException e) {
        projectChecks.add(List.of(command));
      }
    }));
    List<PlanWarning> warnings = new ArrayList<>();
    boolean weakSomewhere = false;
    Map<List<String>, String> firstUse = new HashMap<>();
    Map<List<String>, String> firstUser = new HashMap<>();
    for (int i = 0; i < plan.phases().size(); i++) {
      Phase phase = plan.phases().get(i);
      String at = "/phases/" + i;
      List<ParsedCommand> commands = evidence.get(phase.id());
      if (phase.verificationKind() == VerificationKind.CODE) {
        boolean recognised = commands.stream()
            .anyMatch(c -> projectChecks.contains(c.argv()) || EvidenceTools.isRecognisedCheck(c.argv()));
        if (!recognised) {
          weakSomewhere = true;
          warnings.add(new PlanWarning(PlanWarning.NO_RECOGNISED_CHECK, at + "/acceptance", "phase \"" + phase.id()
              + "\" is a code phase, and none of its acceptance commands is a recognisable test, lint, type-check, build or"
              + " syntax-validation command; add one, name the project's own in the contract's evidence, or mark the phase non-code"));
        }
        for (ParsedCommand command : commands) {
          if (EvidenceTools.isWeak(command.argv())) {
            weakSomewhere = true;
            warnings.add(new PlanWarning(PlanWarning.WEAK_EVIDENCE, command.pointer(), "\"" + command.command()
                + "\" only prints or copies; its passing proves nothing about the code"));
          }
        }
      }
      for (ParsedCommand command : commands) {
        String earlier = firstUser.get(command.argv());
        if (earlier != null && !related(plan, earlier, phase.id())) {
          warnings.add(new PlanWarning(PlanWarning.REUSED_COMMAND, command.pointer(), "\"" + command.command()
              + "\" is also the evidence of phase \"" + earlier + "\" (" + firstUse.get(command.argv())
              + "), which this phase does not depend on; the same command cannot tell the two deliverables apart"));
        } else if (earlier == null) {
          firstUser.put(command.argv(), phase.id());
          firstUse.put(command.argv(), command.pointer());
        }
      }
    }
    if (weakSomewhere && !contract.critic().map(CriticConfig::blocking).orElse(false)) {
      warnings.add(new PlanWarning(PlanWarning.RECOMMEND_BLOCKING_CRITIC, "", "some deterministic evidence is weak and the contract has no"
          + " blocking critic; set \"critic\": {\"command\": ..., \"blocking\": true} in the contract so that a reviewer gates completion"));
    }
    return warnings;
  }

  /** Whether {@code later} depends on {@code earlier}, directly or through other phases. */
  private static boolean related(WorkPlan plan, String earlier, String later) {
    List<String> pending = new ArrayList<>(List.of(later));
    Set<String> seen = new HashSet<>();
    while (!pending.isEmpty()) {
      String id = pending.remove(pending.size() - 1);
      if (id.equals(earlier)) {
        return true;
      }
      if (seen.add(id)) {
        plan.phase(id).ifPresent(p -> pending.addAll(p.dependsOn()));
      }
    }
    return false;
  }
}
