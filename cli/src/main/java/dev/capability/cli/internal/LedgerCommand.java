package dev.capability.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.ledger.EntrySummary;
import dev.capability.ledger.ExportFormat;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerEntry;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.LedgerQuery;
import dev.capability.ledger.LedgerReader;
import dev.capability.ledger.LedgerVerification;
import dev.capability.ledger.RecordKind;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code capability ledger}: list, show, verify and export what the ledger recorded. */
@Command(
    name = "ledger",
    description = "List, show, verify and export the evidence ledger of a repository.",
    subcommands = {LedgerCommand.ListCommand.class, LedgerCommand.ShowCommand.class, LedgerCommand.VerifyCommand.class,
        LedgerCommand.ExportCommand.class})
final class LedgerCommand implements Callable<Integer> {
  private final Console console;

  LedgerCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    console.err().println("capability: ledger needs a subcommand: list, show, verify or export; see 'capability ledger --help'");
    return ExitCodes.USAGE;
  }

  /** Where the ledger is, and where its key and checkpoints are when they are kept elsewhere. */
  static final class Location {
    @Option(names = "--repo", paramLabel = "DIR", description = "The repository whose ledger to read (default: the working directory).")
    Path repository;

    @Option(names = "--db", paramLabel = "FILE", description = "The ledger database itself, instead of <repo>/.capability/state.db.")
    Path database;

    @Option(names = "--checkpoints", paramLabel = "FILE", description = "The checkpoint file (default: beside the database).")
    Path checkpoints;

    @Option(names = "--public-key", paramLabel = "FILE", description = "The public key checkpoints are verified with (default: ledger-key.pub beside the database).")
    Path publicKey;

    @Option(names = "--key", paramLabel = "FILE", description = "The private key, for signed exports (default: ledger-key beside the database).")
    Path key;

    LedgerReader reader() {
      Path db = database != null ? database.toAbsolutePath()
          : SqliteLedger.databaseFile(repository != null ? repository : Path.of("").toAbsolutePath());
      LedgerOptions.Builder options = LedgerOptions.builder();
      if (checkpoints != null) {
        options.checkpointFile(checkpoints);
      }
      if (publicKey != null) {
        options.publicKeyFile(publicKey);
      }
      if (key != null) {
        options.keyFile(key);
      }
      return LedgerReader.open(db, options.build());
    }
  }

  /** {@code capability ledger list}. */
  @Command(name = "list", description = "List records, newest first.")
  static final class ListCommand implements Callable<Integer> {
    private static final Pattern AGO = Pattern.compile("([0-9]{1,9})(s|m|h|d)");

    private final Console console;
    private final Clock clock;

    @Mixin Location location;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--since", paramLabel = "T",
        description = "Only records since T: an ISO-8601 instant (2026-11-30T10:00:00Z), a date (2026-11-30, UTC), or an age (30m, 12h, 7d).")
    String since;

    @Option(names = "--status", paramLabel = "S",
        description = "Only records with this status: COMPLETED, DENIED, TIMED_OUT, OUTPUT_LIMIT, MEMORY_LIMIT, PROCESS_LIMIT, FILE_SIZE_LIMIT, WRITE_LIMIT, LAUNCH_FAILED, WORKSPACE_REFUSED; ALLOWED or DENIED for checks; APPROVED or REFUSED for approvals; ACQUIRED or REFUSED for acquisitions; the event (VERIFIED, COMPLETED, ...) for phase records.")
    String status;

    @Option(names = "--kind", paramLabel = "K", description = "Only records of this kind: execution, decision, plan, approval, receipt, acquisition, contract, work_plan, phase, assumption, correction, evaluation.")
    String kind;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most N records (default 50, at most 100000).")
    int limit;

    ListCommand(Console console) {
      this(console, Clock.systemUTC());
    }

    ListCommand(Console console, Clock clock) {
      this.console = console;
      this.clock = clock;
    }

    @Override
    public Integer call() {
      // A bad --since, --status or --kind is an IllegalArgumentException: a usage error.
      LedgerQuery query = query();
      List<EntrySummary> entries = location.reader().list(query);
      if (json) {
        console.json(Map.of("records", entries.stream().map(ListCommand::toMap).toList()));
      } else {
        for (EntrySummary e : entries) {
          console.out().println(e.sequence() + "  " + e.recordedAt() + "  " + e.kind().id() + "  " + orDash(e.status())
              + "  " + (e.exitCode() == null ? "-" : e.exitCode()) + "  " + describe(e));
        }
      }
      return ExitCodes.OK;
    }

    private LedgerQuery query() {
      LedgerQuery query = LedgerQuery.latest(limit);
      if (since != null) {
        query = query.since(parseSince(since));
      }
      if (status != null) {
        query = query.status(status.toUpperCase(Locale.ROOT));
      }
      if (kind != null) {
        query = query.kind(RecordKind.fromId(kind.toLowerCase(Locale.ROOT).replace('-', '_')));
      }
      return query;
    }

    private Instant parseSince(String value) {
      Matcher m = AGO.matcher(value);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        Duration age = switch (m.group(2)) {
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
        return clock.instant().minus(age);
      }
      try {
        return value.length() == 10 ? LocalDate.parse(value).atStartOfDay().toInstant(ZoneOffset.UTC) : Instant.parse(value);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("--since '" + value + "' is not an instant (2026-11-30T10:00:00Z), a date (2026-11-30)"
            + " or an age (30m, 12h, 7d)");
      }
    }

    private static String describe(EntrySummary e) {
      if (e.phaseId() != null) {
        return "work plan " + Console.quote(e.workPlanId()) + " revision " + e.planRevision() + " phase " + Console.quote(e.phaseId());
      }
      if (e.workPlanId() != null) {
        return "work plan " + Console.quote(e.workPlanId()) + " revision " + e.planRevision() + " " + orDash(e.contentHash());
      }
      if (e.kind() == RecordKind.CONTRACT) {
        return "contract " + orDash(e.contentHash());
      }
      if (e.coordinates() != null) {
        String acquired = Console.quote(e.coordinates()) + " sha256:" + orDash(e.sha256());
        return "REFUSED".equals(e.status()) ? acquired + " " + orDash(e.decisionCode()) : acquired;
      }
      if (e.argv() != null) {
        return String.join(" ", e.argv().stream().map(Console::quote).toList());
      }
      return e.planFingerprint() == null ? "" : "plan " + e.planFingerprint();
    }

    private static String orDash(String s) {
      return s == null ? "-" : s;
    }

    /** One listed record as JSON (also what the MCP tool ledger_list returns). */
    static Map<String, Object> toMap(EntrySummary e) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("seq", e.sequence());
      m.put("kind", e.kind().id());
      m.put("recordedAt", e.recordedAt());
      m.put("status", e.status());
      m.put("exitCode", e.exitCode());
      m.put("argv", e.argv());
      m.put("executable", e.executable());
      m.put("backend", e.backend());
      m.put("policyHash", e.policyHash());
      m.put("planFingerprint", e.planFingerprint());
      m.put("coordinates", e.coordinates());
      m.put("sha256", e.sha256());
      m.put("decisionCode", e.decisionCode());
      m.put("workPlanId", e.workPlanId());
      m.put("planRevision", e.planRevision());
      m.put("phaseId", e.phaseId());
      m.put("contentHash", e.contentHash());
      return m;
    }
  }

  /** {@code capability ledger show}. */
  @Command(name = "show", description = "Show one record with its hashes.")
  static final class ShowCommand implements Callable<Integer> {
    private static final ObjectMapper PRETTY = new ObjectMapper();

    private final Console console;

    @Mixin Location location;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Parameters(paramLabel = "ID", description = "The record's sequence number.")
    long sequence;

    ShowCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      try {
        LedgerEntry e = location.reader().show(sequence)
            .orElseThrow(() -> new LedgerException(LedgerCodes.LEDGER_NO_SUCH_RECORD, "the ledger holds no record " + sequence));
        if (json) {
          console.json(toMap(e));
        } else {
          console.out().println("record " + e.sequence() + " (" + e.kind().id() + ") recorded " + e.recordedAt());
          console.out().println("hash      " + e.hash() + (e.hashMatches() ? "" : "  DOES NOT MATCH THE RECORD"));
          console.out().println("prev hash " + e.prevHash());
          console.out().println(PRETTY.writerWithDefaultPrettyPrinter().writeValueAsString(e.body()));
        }
        return e.hashMatches() ? ExitCodes.OK : ExitCodes.NOT_INTACT;
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot print a record as JSON", e);
      }
    }

    /** One record with its hashes as JSON (also what the MCP tool ledger_show returns). */
    static Map<String, Object> toMap(LedgerEntry e) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("seq", e.sequence());
      m.put("kind", e.kind().id());
      m.put("recordedAt", e.recordedAt());
      m.put("prevHash", e.prevHash());
      m.put("hash", e.hash());
      m.put("hashMatches", e.hashMatches());
      m.put("body", e.body());
      return m;
    }
  }

  /** {@code capability ledger verify}. */
  @Command(name = "verify", description = "Verify the hash chain and the signed checkpoints; exit 1 where it broke.")
  static final class VerifyCommand implements Callable<Integer> {
    private final Console console;

    @Mixin Location location;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--storage", description = "Also run SQLite's structural check of every page (PRAGMA quick_check); reads the file once more.")
    boolean storage;

    VerifyCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      LedgerVerification v = location.reader().verify(storage);
      if (json) {
        console.json(toMap(v));
      } else if (v.intact()) {
        console.out().println("INTACT: " + v.records() + " records; " + v.integrity().message() + "; " + v.completeness().message());
      } else {
        console.out().println(v.status() + " at " + v.sequence() + ": " + v.message());
        if (!v.integrity().intact() && !v.completeness().intact()) {
          console.out().println(v.completeness().status() + " at " + v.completeness().sequence() + ": " + v.completeness().message());
        }
      }
      return v.intact() ? ExitCodes.OK : ExitCodes.NOT_INTACT;
    }

    /** A verification as JSON (also what the MCP tool ledger_verify returns). */
    static Map<String, Object> toMap(LedgerVerification v) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("status", v.status().name());
      m.put("sequence", v.sequence());
      m.put("message", v.message());
      m.put("integrity", finding(v.integrity()));
      m.put("completeness", finding(v.completeness()));
      m.put("records", v.records());
      m.put("headSequence", v.headSequence());
      m.put("headHash", v.headHash());
      m.put("checkpointSequence", v.checkpointSequence());
      m.put("uncheckpointed", v.uncheckpointed());
      return m;
    }

    private static Map<String, Object> finding(LedgerVerification.Finding f) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("status", f.status().name());
      m.put("sequence", f.sequence());
      m.put("message", f.message());
      return m;
    }
  }

  /** {@code capability ledger export}. */
  @Command(
      name = "export",
      description = "Write the ledger to stdout: every record as JSON lines, or executions and acquisitions as signed in-toto statements.")
  static final class ExportCommand implements Callable<Integer> {
    private final Console console;

    @Mixin Location location;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "jsonl",
        description = "jsonl (every record, as stored) or intoto (DSSE envelopes of in-toto Statements v1, signed; verified first).")
    String format;

    @Option(names = "--json", description = "Report errors as one JSON document on stdout (the export itself is JSON lines either way).")
    boolean json;

    ExportCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      ExportFormat chosen = switch (format.toLowerCase(Locale.ROOT)) {
        case "jsonl" -> ExportFormat.JSONL;
        case "intoto" -> ExportFormat.INTOTO;
        default -> throw new CapabilityException(CliCodes.USAGE, "--format must be jsonl or intoto, was '" + format + "'");
      };
      location.reader().export(chosen, console.out());
      return ExitCodes.OK;
    }
  }
}
