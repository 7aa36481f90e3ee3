package dev.capability.workflow;

import dev.capability.kernel.api.store.PlaybookEntry;
import dev.capability.kernel.api.store.PlaybookPattern;
import dev.capability.kernel.api.store.PlaybookStore;
import dev.capability.workflow.internal.FileTraits;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The operator's cross-project playbook, as the work-plan layer uses it: it records the shape of a
 * correction (a root-cause category, the kind of assumption that was wrong, the languages and
 * roles of the files corrected) and, when a plan is saved, tells the agent which of those shapes
 * concern the files its phases will write. Only words of fixed vocabularies reach the store: the
 * files' paths are read for their extension and well-known names here and go no further.
 *
 * <p>Off unless the operator enabled it: a {@link #disabled()} playbook stores and queries nothing.
 * It is a service beside {@link WorkPlans}, which it never changes: the host asks it for hints
 * with the revision {@link WorkPlans#save} returned.
 *
 * <pre>{@code
 * Optional<SqlitePlaybook> store = SqlitePlaybook.openIfEnabled(Path.of(System.getProperty("user.home")));
 * Playbook playbook = store.map(Playbook::using).orElse(Playbook.disabled());
 * WorkPlanRevision saved = plans.save(planJson);
 * List<PlaybookHint> watchOut = playbook.hints(saved.plan());
 * }</pre>
 */
public final class Playbook {
  /** The most hints one phase gets: the most frequent patterns first. */
  public static final int MAX_HINTS_PER_PHASE = 5;

  private static final Playbook DISABLED = new Playbook(Optional.empty());

  private final Optional<PlaybookStore> store;

  private Playbook(Optional<PlaybookStore> store) {
    this.store = store;
  }

  /** The playbook of an operator who did not enable it. */
  public static Playbook disabled() {
    return DISABLED;
  }

  /** The playbook kept in {@code store}. */
  public static Playbook using(PlaybookStore store) {
    return new Playbook(Optional.of(Objects.requireNonNull(store, "store")));
  }

  /** Whether the operator enabled it. */
  public boolean enabled() {
    return store.isPresent();
  }

  /**
   * The hints for {@code plan}: for each phase, the recorded patterns that concern the languages
   * and roles of its write scopes (a scope such as {@code src/**} could hold any language), at most
   * {@value #MAX_HINTS_PER_PHASE}, the most frequent first. None when disabled.
   */
  public List<PlaybookHint> hints(WorkPlan plan) {
    Objects.requireNonNull(plan, "plan");
    if (store.isEmpty()) {
      return List.of();
    }
    List<PlaybookHint> hints = new ArrayList<>();
    for (int i = 0; i < plan.phases().size(); i++) {
      Phase phase = plan.phases().get(i);
      FileTraits.Traits traits = FileTraits.of(phase.writeScopes());
      List<PlaybookPattern> patterns = store.get().concerning(traits.languages(), traits.roles());
      for (PlaybookPattern pattern : patterns.subList(0, Math.min(MAX_HINTS_PER_PHASE, patterns.size()))) {
        hints.add(new PlaybookHint(phase.id(), "/phases/" + i + "/writeScopes", pattern, message(phase, pattern)));
      }
    }
    return List.copyOf(hints);
  }

  /**
   * Records the shape of a correction: {@code rootCause} and {@code assumptionKind} are category
   * tokens ({@code misread-api}, {@code api-behaviour}: never the agent's free-text root cause),
   * and {@code files}, the repository-relative paths or globs the correction concerned, are reduced
   * to their languages and roles. More than {@value PlaybookEntry#MAX_TRAITS} languages are kept as
   * "any language". The tokens are checked whether or not the playbook is enabled.
   *
   * @return the pattern as recorded, with its count; empty when the playbook is disabled
   * @throws dev.capability.kernel.api.CapabilityException {@value PlaybookEntry#INVALID} when a category is not a token
   */
  public Optional<PlaybookPattern> recordCorrection(String rootCause, String assumptionKind, Collection<String> files) {
    Objects.requireNonNull(files, "files");
    FileTraits.Traits traits = FileTraits.of(files);
    Set<String> languages = traits.languages().size() > PlaybookEntry.MAX_TRAITS ? Set.of() : traits.languages();
    PlaybookEntry entry = new PlaybookEntry(rootCause, assumptionKind, languages, traits.roles());
    return store.map(s -> new PlaybookPattern(entry, s.record(entry)));
  }

  private static String message(Phase phase, PlaybookPattern pattern) {
    PlaybookEntry entry = pattern.entry();
    String languages = entry.languages().isEmpty() ? "files of any language" : String.join("/", entry.languages()) + " files";
    String roles = entry.roles().isEmpty() ? "" : " (" + String.join(", ", entry.roles()) + ")";
    String times = pattern.occurrences() == 1 ? "once" : pattern.occurrences() + " times";
    return "watch out in phase " + phase.id() + ": a correction of " + languages + roles + " was needed " + times
        + " before, root cause \"" + entry.rootCause() + "\", a wrong assumption of kind \"" + entry.assumptionKind() + "\"";
  }
}
