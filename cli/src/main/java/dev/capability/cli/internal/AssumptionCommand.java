package dev.capability.cli.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.store.PlaybookEntry;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.SqliteLedger;
import dev.capability.workflow.Assumption;
import dev.capability.workflow.AssumptionState;
import dev.capability.workflow.Assumptions;
import dev.capability.workflow.CorrectionRadius;
import dev.capability.workflow.Invalidation;
import dev.capability.workflow.PhaseVerification;
import dev.capability.workflow.RadiusBounds;
import dev.capability.workflow.ScopeExpansion;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code capability assumption}: record, list, show, invalidate and expand the assumptions of a repository's work plan (docs/assumptions.md). */
@Command(name = "assumption", description = "Record an agent's assumptions; invalidate one to compute its correction radius; expand the radius with a justification.",
    subcommands = {AssumptionCommand.Record.class, AssumptionCommand.ListAll.class, AssumptionCommand.Show.class,
        AssumptionCommand.Invalidate.class, AssumptionCommand.Expand.class})
final class AssumptionCommand implements Callable<Integer> {
  private final Console console;

  AssumptionCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    console.err().println("capability: assumption needs a subcommand: record, list, show, invalidate or expand;"
        + " see 'capability assumption --help'");
    return ExitCodes.USAGE;
  }

  /** The policy, the repository whose ledger holds the plan, and {@code --json}. */
  static final class Options {
    /** No timed checkpoints: the ledger may stay open while commands run in the repository. */
    private static final LedgerOptions WHILE_RUNNING = LedgerOptions.builder().checkpointMaxDelay(null).build();

    @Option(names = "--policy", paramLabel = "FILE",
        description = "The operator policy (JSON). Default: the file named by " + KernelOptions.POLICY_ENV
            + ", else $${XDG_CONFIG_HOME:-~/.config}/capability/policy.json.")
    Path policy;

    @Option(names = "--repo", paramLabel = "DIR", description = "The repository (default: the working directory).")
    Path repository;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--max-depth", paramLabel = "N", defaultValue = "4", description = "How many links a radius follows (default 4, 0 to 64).")
    int maxDepth;

    @Option(names = "--max-files", paramLabel = "N", defaultValue = "200", description = "The most files in a radius (default 200, 1 to 100000).")
    int maxFiles;

    <T> T with(Console console, java.util.function.Function<Assumptions, T> action) {
      Path repo = (repository != null ? repository : Path.of("")).toAbsolutePath();
      RadiusBounds bounds = new RadiusBounds(maxDepth, maxFiles);
      try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.load(
              PolicyLocation.resolve(Optional.ofNullable(policy), console.environment()).file(), repo))
              .hostEnvironment(console.environment())
              .build();
          SqliteLedger ledger = SqliteLedger.forRepository(repo, WHILE_RUNNING)) {
        return action.apply(Assumptions.builder(kernel, ledger, repo).bounds(bounds).build());
      }
    }
  }

  static Map<String, Object> json(AssumptionState s) {
    Assumption a = s.assumption();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", a.id());
    m.put("sequence", s.sequence());
    m.put("status", s.status());
    m.put("workPlanId", a.workPlanId());
    m.put("phaseId", a.phaseId());
    m.put("statement", a.statement());
    m.put("rejectedAlternatives", a.rejectedAlternatives());
    m.put("confidence", a.confidence());
    m.put("links", Map.of("files", a.files(), "phases", a.phases(), "assumptions", a.dependents()));
    s.invalidation().ifPresent(i -> m.put("invalidation", json(i)));
    m.put("expansions", s.expansions().stream().map(AssumptionCommand::json).toList());
    m.put("verifications", s.verifications().stream().map(AssumptionCommand::json).toList());
    s.outcome().ifPresent(o -> {
      Map<String, Object> outcome = new LinkedHashMap<>();
      outcome.put("outcome", o.resolved() ? "resolved" : "abandoned");
      o.verificationSequence().ifPresent(v -> outcome.put("verificationSequence", v));
      outcome.put("reason", o.reason());
      outcome.put("sequence", o.sequence());
      m.put("outcome", outcome);
    });
    return m;
  }

  static Map<String, Object> json(Invalidation i) {
    CorrectionRadius r = i.radius();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("assumptionId", i.assumptionId());
    m.put("rootCause", i.rootCause());
    m.put("phaseId", i.phaseId());
    m.put("radius", r.files());
    m.put("excluded", r.excluded());
    m.put("reachedAssumptions", r.reachedAssumptions());
    m.put("reachedPhases", r.reachedPhases());
    m.put("maxDepth", r.bounds().maxDepth());
    m.put("maxFiles", r.bounds().maxFiles());
    m.put("depthBoundReached", r.depthBoundReached());
    m.put("fileBoundReached", r.fileBoundReached());
    m.put("sequence", i.sequence());
    return m;
  }

  static Map<String, Object> json(ScopeExpansion e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("paths", e.paths());
    m.put("justification", e.justification());
    m.put("sequence", e.sequence());
    return m;
  }

  static Map<String, Object> json(PhaseVerification v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("passed", v.passed());
    v.failureCode().ifPresent(code -> m.put("failureCode", code));
    m.put("message", v.message());
    m.put("violations", v.violations().stream().map(Attestation.Violation::path).toList());
    m.put("sequence", v.sequence());
    return m;
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (CharacterCodingException e) {
      throw new CapabilityException(CliCodes.INPUT_NOT_UTF8, file + " is not UTF-8");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + " cannot be read: " + e.getMessage(), e);
    }
  }

  private static void printRadius(Console console, Invalidation i) {
    CorrectionRadius r = i.radius();
    console.out().println("invalidated " + i.assumptionId() + " in phase " + i.phaseId() + " (record " + i.sequence() + "); radius of "
        + r.files().size() + " files:");
    r.files().forEach(f -> console.out().println("  " + f));
    r.excluded().forEach((f, why) -> console.out().println("  excluded " + f + ": " + why));
    if (r.depthBoundReached()) {
      console.out().println("bound reached: links go on past depth " + r.bounds().maxDepth());
    }
    if (r.fileBoundReached()) {
      console.out().println("bound reached: more than " + r.bounds().maxFiles() + " files; the nearest were kept");
    }
  }

  /** {@code capability assumption record FILE}. */
  @Command(name = "record", description = "Validate FILE (an assumption, docs/schemas/assumption.schema.json) and record it in the active phase.")
  static final class Record implements Callable<Integer> {
    private final Console console;

    @Mixin Options options;

    @Parameters(paramLabel = "FILE", description = "The assumption (JSON).")
    Path file;

    Record(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      String text = read(file);
      AssumptionState state = options.with(console, a -> a.record(text));
      if (options.json) {
        console.json(json(state));
      } else {
        console.out().println("recorded assumption " + state.assumption().id() + " in phase " + state.assumption().phaseId()
            + " (record " + state.sequence() + ")");
      }
      return ExitCodes.OK;
    }
  }

  /** {@code capability assumption list}. */
  @Command(name = "list", description = "List the assumptions, oldest first, with their status.")
  static final class ListAll implements Callable<Integer> {
    private final Console console;

    @Mixin Options options;

    ListAll(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      List<AssumptionState> all = options.with(console, Assumptions::list);
      if (options.json) {
        console.json(Map.of("assumptions", all.stream().map(AssumptionCommand::json).toList()));
      } else {
        all.forEach(s -> console.out().println(s.assumption().id() + "  " + s.status() + "  phase " + s.assumption().phaseId()
            + "  " + Console.quote(s.assumption().statement())));
      }
      return ExitCodes.OK;
    }
  }

  /** {@code capability assumption show ID}. */
  @Command(name = "show", description = "Show an assumption, its invalidation, expansions, verifications and outcome.")
  static final class Show implements Callable<Integer> {
    private final Console console;

    @Mixin Options options;

    @Parameters(paramLabel = "ID", description = "The assumption's id.")
    String id;

    Show(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      AssumptionState state = options.with(console, a -> a.show(id));
      if (options.json) {
        console.json(json(state));
        return ExitCodes.OK;
      }
      Assumption a = state.assumption();
      console.out().println(a.id() + "  " + state.status() + "  phase " + a.phaseId() + "  confidence " + a.confidence()
          + " (agent-authored, not a probability)");
      console.out().println("  " + Console.quote(a.statement()));
      state.invalidation().ifPresent(i -> printRadius(console, i));
      state.expansions().forEach(e -> console.out().println("expanded by " + e.paths() + ": " + Console.quote(e.justification())));
      state.verifications().forEach(v -> console.out().println("verification " + v.sequence() + ": "
          + (v.passed() ? "passed" : v.failureCode().orElseThrow() + ": " + v.message())));
      return ExitCodes.OK;
    }
  }

  /** {@code capability assumption invalidate ID --root-cause TEXT}. */
  @Command(name = "invalidate", description = "Record that the assumption was wrong and compute its correction radius.")
  static final class Invalidate implements Callable<Integer> {
    private final Console console;

    @Mixin Options options;

    @Parameters(paramLabel = "ID", description = "The assumption's id.")
    String id;

    @Option(names = "--root-cause", paramLabel = "TEXT", required = true, description = "Why it was wrong (not blank).")
    String rootCause;

    @Option(names = "--category", paramLabel = "TOKEN",
        description = "For the playbook, when the operator enabled it: the root cause's category, a short lowercase word such as misread-api (never the free text). With --assumption-kind.")
    String category;

    @Option(names = "--assumption-kind", paramLabel = "TOKEN",
        description = "For the playbook: the kind of the wrong assumption, a short lowercase word such as api-behaviour. With --category.")
    String assumptionKind;

    Invalidate(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      if ((category == null) != (assumptionKind == null)) {
        throw new CapabilityException(CliCodes.USAGE, "--category and --assumption-kind go together: give both or neither");
      }
      // The tokens are checked before anything is recorded, whether or not the playbook is enabled.
      for (String token : category == null ? List.<String>of() : List.of(category, assumptionKind)) {
        if (!PlaybookEntry.isToken(token)) {
          throw new CapabilityException(PlaybookEntry.INVALID, "--category and --assumption-kind take a short lowercase word (letters, digits,"
              + " single '-', at most " + PlaybookEntry.MAX_TOKEN_LENGTH + " characters), never free text or a path");
        }
      }
      Invalidation invalidation = options.with(console, a -> a.invalidate(id, rootCause));
      boolean recorded = false;
      if (category != null) {
        try {
          recorded = PlaybookCommand.recordIfEnabled(console, category, assumptionKind, invalidation.radius().files());
        } catch (CapabilityException e) {
          // The invalidation is recorded; the playbook is advice for later plans, so its failure is reported, not fatal.
          console.err().println("capability: not recorded in the playbook: " + e.code() + ": " + e.getMessage());
        }
      }
      if (options.json) {
        Map<String, Object> view = json(invalidation);
        view.put("playbookRecorded", recorded);
        console.json(view);
      } else {
        printRadius(console, invalidation);
        if (recorded) {
          console.out().println("recorded in the playbook as " + category + " / " + assumptionKind);
        }
      }
      return ExitCodes.OK;
    }
  }

  /** {@code capability assumption expand ID --path P... --justification TEXT}. */
  @Command(name = "expand", description = "Widen an invalidated assumption's correction radius, inside the phase, for a stored justification.")
  static final class Expand implements Callable<Integer> {
    private final Console console;

    @Mixin Options options;

    @Parameters(paramLabel = "ID", description = "The assumption's id.")
    String id;

    @Option(names = "--path", paramLabel = "GLOB", required = true, description = "A repository-relative path or write-scope glob to add (repeatable).")
    List<String> paths;

    @Option(names = "--justification", paramLabel = "TEXT", required = true, description = "Why (not empty, not blank); stored with the expansion.")
    String justification;

    Expand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      ScopeExpansion expansion = options.with(console, a -> a.expandCorrectionScope(id, paths, justification));
      if (options.json) {
        console.json(json(expansion));
      } else {
        console.out().println("expanded the correction of " + id + " by " + expansion.paths() + " (record " + expansion.sequence() + ")");
      }
      return ExitCodes.OK;
    }
  }
}
