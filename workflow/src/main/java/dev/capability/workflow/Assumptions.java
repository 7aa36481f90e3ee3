package dev.capability.workflow;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.store.AssumptionStore;
import dev.capability.kernel.api.store.WorkPlanStore;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.workflow.internal.ApologyAdvice;
import dev.capability.workflow.internal.AssumptionService;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The assumptions an agent records while working a phase of a work plan, and the correction of one
 * found wrong. Invalidating an assumption computes the <em>correction radius</em>: the files that
 * depended on it through the recorded links, bounded, and never beyond the phase's authority.
 * The radius becomes the correction layer: while the correction runs, write authority is operator
 * ∩ contract ∩ phase ∩ (radius ∪ justified expansions), and any file changed outside it since the
 * invalidation fails the correction's verification as a scope violation. The agent can narrow its
 * authority with an assumption, and widen the radius only inside the phase, each time with a stored
 * justification; it can never widen the phase.
 *
 * <pre>{@code
 * Assumptions assumptions = Assumptions.builder(kernel, ledger, repo).build();
 * assumptions.record(Files.readString(assumptionFile));                       // in the active phase
 * Invalidation inv = assumptions.invalidate("ints", "Calc must add longs");   // inv.radius().files()
 * assumptions.expandCorrectionScope("ints", List.of("src/test/**"), "the test pins the overflow");
 * PhaseVerification v = assumptions.verifyCorrection("ints");
 * if (v.passed()) {
 *   assumptions.resolve("ints", "Calc adds longs");
 * }
 * }</pre>
 *
 * <p>Every refusal is a {@link WorkflowException} with a stable code ({@link AssumptionCodes}, or
 * {@link WorkflowCodes} for the plan's state) and records nothing. Not thread-safe.
 */
public final class Assumptions {
  private final AssumptionService service;

  private Assumptions(Builder<?> b) {
    this.service = new AssumptionService(b.store, b.store, b.kernel, b.repository, b.clock, b.bounds);
  }

  /**
   * A builder for the assumptions of the repository at {@code repository}, whose work plan is in
   * {@code store} and whose commands run through {@code kernel}.
   */
  public static <S extends WorkPlanStore & AssumptionStore> Builder<S> builder(CommandKernel kernel, S store, Path repository) {
    return new Builder<>(kernel, store, repository);
  }

  /**
   * Reads, checks and records an assumption made in the active phase. Its links are checked: a file
   * link is a repository-relative path or glob, a phase link a phase of the plan, an assumption
   * link a recorded assumption (one that depends on this one), and no link may close a cycle. A
   * link to a file outside the phase's scope is accepted and widens nothing: the radius leaves it
   * out. Nothing is recorded when it is refused.
   *
   * @throws WorkflowException {@code ASSUMPTION_INVALID}, {@code ASSUMPTION_CONFIDENCE_INVALID} (a confidence
   *     that is a string, NaN, an infinity or outside [0, 1]: never clamped), {@code ASSUMPTION_LINK_OUTSIDE_REPOSITORY},
   *     {@code ASSUMPTION_LINK_UNKNOWN}, {@code ASSUMPTION_LINK_CYCLE}, {@code ASSUMPTION_EXISTS}, the work plans' code for a missing plan,
   *     {@code PHASE_NOT_ACTIVE}
   */
  public AssumptionState record(String json) {
    return service.record(Objects.requireNonNull(json, "json"));
  }

  /** Every assumption with what its records say, oldest first. */
  public List<AssumptionState> list() {
    return service.list();
  }

  /**
   * One assumption with what its records say.
   *
   * @throws WorkflowException {@code ASSUMPTION_UNKNOWN}
   */
  public AssumptionState show(String assumptionId) {
    return service.show(Objects.requireNonNull(assumptionId, "assumptionId"));
  }

  /**
   * Records that the assumption was wrong and why, and computes its correction radius in the
   * active phase, with the working tree's manifest from which the correction is audited.
   *
   * @throws WorkflowException {@code ROOT_CAUSE_REQUIRED}, {@code ASSUMPTION_UNKNOWN}, {@code ASSUMPTION_ALREADY_INVALIDATED},
   *     {@code CORRECTION_CLOSED}, {@code CONTRACT_MISSING}, {@code PHASE_NOT_ACTIVE}, the work plans' code for a missing plan
   */
  public Invalidation invalidate(String assumptionId, String rootCause) {
    return service.invalidate(Objects.requireNonNull(assumptionId, "assumptionId"), rootCause);
  }

  /**
   * Widens the correction's radius by {@code paths} (repository-relative paths or write-scope
   * globs), for {@code justification}, which is stored with it. Each path must lie inside the
   * phase's authority (operator ∩ contract ∩ phase).
   *
   * @throws WorkflowException {@code JUSTIFICATION_REQUIRED} (empty or blank), {@code EXPANSION_INVALID},
   *     {@code EXPANSION_OUTSIDE_PHASE} (with the counterexample), {@code ASSUMPTION_NOT_INVALIDATED},
   *     {@code CORRECTION_CLOSED}, {@code PHASE_NOT_ACTIVE}
   */
  public ScopeExpansion expandCorrectionScope(String assumptionId, List<String> paths, String justification) {
    return service.expand(Objects.requireNonNull(assumptionId, "assumptionId"), paths, justification);
  }

  /**
   * The correction layer of an invalidated assumption: the radius and the expansions as write
   * scopes, or read-only when both are empty. Pass it to a command with the contract and the phase
   * to run it inside the correction.
   *
   * @throws WorkflowException {@code ASSUMPTION_UNKNOWN}, {@code ASSUMPTION_NOT_INVALIDATED}
   */
  public AuthorityLayer correctionLayer(String assumptionId) {
    return service.correctionLayer(Objects.requireNonNull(assumptionId, "assumptionId"));
  }

  /**
   * The layers an agent's command runs under besides the operator policy while corrections are
   * open, as the MCP server and the agent tools apply them: {@link WorkPlans#activeLayers()} (the
   * contract and the active phase), then the correction layer of each assumption invalidated in the
   * active phase and not yet closed.
   *
   * @param plans the work plans of the same repository and store
   */
  public List<AuthorityLayer> activeLayers(WorkPlans plans) {
    List<AuthorityLayer> layers = new ArrayList<>(plans.activeLayers());
    plans.activePhase().ifPresent(phase -> {
      for (AssumptionState state : list()) {
        if (state.status().equals("INVALIDATED") && state.invalidation().orElseThrow().phaseId().equals(phase.id())) {
          layers.add(correctionLayer(state.assumption().id()));
        }
      }
    });
    return List.copyOf(layers);
  }

  /**
   * Verifies the correction: runs the phase's acceptance commands through the kernel with the
   * contract, the phase and the correction layer, stopping at the first that fails; then audits
   * every change since the invalidation against that authority ({@code PHASE_SCOPE_VIOLATION} for a
   * file changed outside radius ∪ expansions) and scans it for secrets. Records the launches and
   * the verification; a failure is a value.
   *
   * @throws WorkflowException {@code ASSUMPTION_NOT_INVALIDATED}, {@code CORRECTION_CLOSED}, {@code PHASE_NOT_ACTIVE}
   */
  public PhaseVerification verifyCorrection(String assumptionId) {
    return service.verify(Objects.requireNonNull(assumptionId, "assumptionId"));
  }

  /**
   * Closes the correction as resolved on its last verification, which must have passed on the
   * working tree as it is.
   *
   * @throws WorkflowException {@code CORRECTION_NOT_VERIFIED}, {@code EVIDENCE_STALE}, {@code CORRECTION_CLOSED},
   *     {@code ASSUMPTION_NOT_INVALIDATED}
   */
  public CorrectionOutcome resolve(String assumptionId, String reason) {
    return service.resolve(Objects.requireNonNull(assumptionId, "assumptionId"), reason);
  }

  /**
   * Closes the correction (or the assumption, if never invalidated) as abandoned, naming its last
   * verification if it had one.
   *
   * @throws WorkflowException {@code JUSTIFICATION_REQUIRED} (a blank reason), {@code CORRECTION_CLOSED}
   */
  public CorrectionOutcome abandon(String assumptionId, String reason) {
    return service.abandon(Objects.requireNonNull(assumptionId, "assumptionId"), reason);
  }

  /**
   * Advice, when {@code message} (an agent's message, passed in by the host) reads like an
   * admission of a mistake ("I apologize", "my mistake", "I was wrong", ...): record the assumption
   * that turned out wrong, or invalidate an open one. Advice only: it records nothing and changes
   * no authority.
   */
  public Optional<String> adviceFor(String message) {
    Objects.requireNonNull(message, "message");
    return ApologyAdvice.admission(message).map(phrase -> ApologyAdvice.suggestion(phrase,
        service.list().stream().filter(s -> s.status().equals("OPEN")).map(s -> s.assumption().id()).toList()));
  }

  /** Builds {@link Assumptions}. Defaults: the system clock and {@link RadiusBounds#DEFAULTS}. */
  public static final class Builder<S extends WorkPlanStore & AssumptionStore> {
    private final CommandKernel kernel;
    private final S store;
    private final Path repository;
    private Clock clock = Clock.systemUTC();
    private RadiusBounds bounds = RadiusBounds.DEFAULTS;

    private Builder(CommandKernel kernel, S store, Path repository) {
      this.kernel = Objects.requireNonNull(kernel, "kernel");
      this.store = Objects.requireNonNull(store, "store");
      this.repository = Objects.requireNonNull(repository, "repository");
    }

    /** The clock of invalidations. */
    public Builder<S> clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How far a radius reaches (the operator's setting). */
    public Builder<S> bounds(RadiusBounds bounds) {
      this.bounds = Objects.requireNonNull(bounds, "bounds");
      return this;
    }

    public Assumptions build() {
      return new Assumptions(this);
    }
  }
}
