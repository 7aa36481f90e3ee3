package dev.capability.workflow;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One phase of a work plan: the third authority layer while it is active, and the commands whose
 * passing is its evidence.
 *
 * @param id unique within the plan
 * @param goal what the phase is for, for people
 * @param writeScopes minimatch globs the phase may write to; inside the contract's
 * @param deliverables what the phase produces, for people and the critic
 * @param verificationKind {@code code} unless the deliverables are not code
 * @param acceptance the deterministic commands that must all pass, in order
 * @param selectiveTests commands run when verification asks for them, after the acceptance commands
 * @param fullSuite the command that must also pass before the phase completes, if any
 * @param dependsOn ids of earlier phases this one builds on
 */
public record Phase(
    String id,
    String goal,
    List<String> writeScopes,
    List<String> deliverables,
    VerificationKind verificationKind,
    List<String> acceptance,
    List<String> selectiveTests,
    Optional<String> fullSuite,
    List<String> dependsOn) {

  public Phase {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(goal, "goal");
    writeScopes = List.copyOf(writeScopes);
    deliverables = List.copyOf(deliverables);
    Objects.requireNonNull(verificationKind, "verificationKind");
    acceptance = List.copyOf(acceptance);
    selectiveTests = List.copyOf(selectiveTests);
    Objects.requireNonNull(fullSuite, "fullSuite");
    dependsOn = List.copyOf(dependsOn);
  }

  /** The phase as the kernel's phase layer. */
  public AuthorityLayer layer() {
    return AuthorityLayer.builder(Kind.PHASE, "phase " + id).writeScopes(writeScopes).build();
  }
}
