package dev.capability.cli.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.store.PlaybookEntry;
import dev.capability.kernel.api.store.PlaybookPattern;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.SqlitePlaybook;
import dev.capability.workflow.Playbook;
import dev.capability.workflow.PlaybookHint;
import dev.capability.workflow.WorkPlan;
import dev.capability.workflow.WorkPlans;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code capability playbook}: turn the operator's cross-project playbook on or off, and ask it for hints. */
@Command(
    name = "playbook",
    description = "Enable or disable the cross-project playbook in ~/.capability/playbook.db (off by default), and show its hints.",
    subcommands = {PlaybookCommand.EnableCommand.class, PlaybookCommand.DisableCommand.class, PlaybookCommand.HintsCommand.class})
final class PlaybookCommand implements Callable<Integer> {
  private final Console console;

  PlaybookCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    console.err().println("capability: playbook needs a subcommand: enable, disable or hints; see 'capability playbook --help'");
    return ExitCodes.USAGE;
  }

  /** The user's home directory, {@code $HOME}, under which {@code .capability/playbook.db} is kept. */
  static Path home(Console console) {
    String home = console.environment().get("HOME");
    if (home == null || home.isEmpty() || !Path.of(home).isAbsolute()) {
      throw new LedgerException(LedgerCodes.PLAYBOOK_LOCATION_UNSAFE, "HOME is not an absolute path, so there is no playbook location");
    }
    return Path.of(home);
  }
  /** The playbook's hints for {@code plan} when the operator enabled it; none otherwise, or without a home directory. */
  static List<PlaybookHint> hintsIfEnabled(Console console, WorkPlan plan) {
    String home = console.environment().get("HOME");
    if (home == null || home.isEmpty()) {
      return List.of(); // no home, so no playbook was ever enabled for this user
    }
    Optional<SqlitePlaybook> store = SqlitePlaybook.openIfEnabled(home(console));
    try {
      return store.map(s -> Playbook.using(s).hints(plan)).orElse(List.of());
    } finally {
      store.ifPresent(SqlitePlaybook::close);
    }
  }

  /**
   * Records the shape of a correction of {@code files} in the playbook when the operator enabled it.
   *
   * @return whether it was recorded (false: disabled, or no home directory)
   */
  static boolean recordIfEnabled(Console console, String category, String assumptionKind, Collection<String> files) {
    String home = console.environment().get("HOME");
    if (home == null || home.isEmpty()) {
      return false;
    }
    Optional<SqlitePlaybook> store = SqlitePlaybook.openIfEnabled(home(console));
    try {
      return store.flatMap(s -> Playbook.using(s).recordCorrection(category, assumptionKind, files)).isPresent();
    } finally {
      store.ifPresent(SqlitePlaybook::close);
    }
  }

  /** The JSON view of one hint. */
  static Map<String, Object> hintView(PlaybookHint hint) {
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("phase", hint.phaseId());
    item.put("pointer", hint.pointer());
    item.putAll(HintsCommand.view(hint.pattern()));
    item.put("message", hint.message());
    return item;
  }


  /** {@code capability playbook enable}. */
  @Command(name = "enable", description = "Create ~/.capability/playbook.db (mode 600, in a directory of mode 700) and print its path.")
  static final class EnableCommand implements Callable<Integer> {
    private final Console console;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    EnableCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      Path file;
      try (SqlitePlaybook playbook = SqlitePlaybook.enable(home(console))) {
        file = playbook.databaseFile();
      }
      if (json) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("enabled", true);
        view.put("path", file.toString());
        console.json(view);
      } else {
        console.out().println(file);
      }
      return ExitCodes.OK;
    }
  }

  /** {@code capability playbook disable}. */
  @Command(name = "disable", description = "Delete ~/.capability/playbook.db and its journals: nothing it learned remains.")
  static final class DisableCommand implements Callable<Integer> {
    private final Console console;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    DisableCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      Path home = home(console);
      boolean wasEnabled = SqlitePlaybook.disable(home);
      if (json) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("enabled", false);
        view.put("deleted", wasEnabled);
        view.put("path", SqlitePlaybook.databaseFile(home).toString());
        console.json(view);
      } else {
        console.out().println(wasEnabled ? "the playbook is disabled; " + SqlitePlaybook.databaseFile(home) + " was deleted"
            : "the playbook was not enabled");
      }
      return ExitCodes.OK;
    }
  }

  /** {@code capability playbook hints [PLAN]}. */
  @Command(name = "hints", description = "Print the watch-out hints for the phases of the work plan PLAN, or without PLAN every recorded"
      + " pattern; nothing when the playbook is disabled.")
  static final class HintsCommand implements Callable<Integer> {
    private final Console console;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PLAN", description = "A work plan's JSON file.")
    Path plan;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    HintsCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      Optional<WorkPlan> workPlan = plan == null ? Optional.empty() : Optional.of(WorkPlans.readPlan(read(plan)));
      Optional<SqlitePlaybook> store = SqlitePlaybook.openIfEnabled(home(console));
      try {
        List<Map<String, Object>> items = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        if (store.isPresent() && workPlan.isPresent()) {
          for (PlaybookHint hint : Playbook.using(store.get()).hints(workPlan.get())) {
            items.add(hintView(hint));
            lines.add(hint.message());
          }
        } else if (store.isPresent()) {
          for (PlaybookPattern pattern : store.get().concerning(Set.of(), Set.of())) {
            items.add(view(pattern));
            PlaybookEntry entry = pattern.entry();
            lines.add(pattern.occurrences() + "\t" + entry.rootCause() + "\t" + entry.assumptionKind() + "\t"
                + String.join(",", entry.languages()) + "\t" + String.join(",", entry.roles()));
          }
        }
        if (json) {
          Map<String, Object> view = new LinkedHashMap<>();
          view.put("enabled", store.isPresent());
          view.put(workPlan.isPresent() ? "hints" : "patterns", items);
          console.json(view);
        } else if (store.isEmpty()) {
          console.err().println("capability: the playbook is disabled; 'capability playbook enable' turns it on");
        } else {
          lines.forEach(console.out()::println);
        }
        return ExitCodes.OK;
      } finally {
        store.ifPresent(SqlitePlaybook::close);
      }
    }

    private static Map<String, Object> view(PlaybookPattern pattern) {
      PlaybookEntry entry = pattern.entry();
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("rootCause", entry.rootCause());
      view.put("assumptionKind", entry.assumptionKind());
      view.put("languages", List.copyOf(entry.languages()));
      view.put("roles", List.copyOf(entry.roles()));
      view.put("occurrences", pattern.occurrences());
      return view;
    }

    private static String read(Path file) {
      try {
        return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
      } catch (CharacterCodingException e) {
        throw new CapabilityException(CliCodes.INPUT_UNREADABLE, "the plan " + file + " is not UTF-8 text");
      } catch (IOException e) {
        throw new CapabilityException(CliCodes.INPUT_UNREADABLE, "cannot read the plan " + file + ": " + e);
      }
    }
  }
}
