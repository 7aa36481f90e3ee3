package dev.capability.kernel.api;

import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the kernel can state about one execution or denial: what was asked, under which policy,
 * which bytes ran where, with which environment names (never values), and what came out.
 * Serialized with exactly these field names; see {@code docs/attestation.md} and its JSON Schema.
 *
 * <p>Fields that do not apply are null ({@code executable} and {@code backend} of a command denied
 * before resolution, {@code exitCode} of a command that did not exit by itself).
 */
public record Attestation(
    String kernelVersion,
    ExecutionStatus status,
    List<String> argv,
    String commandSpecHash,
    DecisionSummary decision,
    String policyHash,
    String policySource,
    Executable executable,
    Backend backend,
    Environment environment,
    String network,
    String projectWrites,
    WriteBoundaries writeBoundaries,
    List<String> createdScopeRoots,
    Map<String, String> toolConfiguration,
    List<String> neutralization,
    List<String> filesProduced,
    List<Change> changes,
    List<Violation> violations,
    SecretScan secrets,
    String inputTreeHash,
    Stream stdout,
    Stream stderr,
    Instant startedAt,
    Instant finishedAt,
    boolean timedOut,
    boolean outputLimitHit,
    Integer exitCode) {

  public Attestation {
    Objects.requireNonNull(kernelVersion, "kernelVersion");
    Objects.requireNonNull(status, "status");
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    Objects.requireNonNull(commandSpecHash, "commandSpecHash");
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(policyHash, "policyHash");
    Objects.requireNonNull(policySource, "policySource");
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(network, "network");
    Objects.requireNonNull(projectWrites, "projectWrites");
    Objects.requireNonNull(writeBoundaries, "writeBoundaries");
    createdScopeRoots = List.copyOf(Objects.requireNonNull(createdScopeRoots, "createdScopeRoots"));
    toolConfiguration = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(toolConfiguration, "toolConfiguration")));
    neutralization = List.copyOf(Objects.requireNonNull(neutralization, "neutralization"));
    filesProduced = List.copyOf(Objects.requireNonNull(filesProduced, "filesProduced"));
    changes = List.copyOf(Objects.requireNonNull(changes, "changes"));
    violations = List.copyOf(Objects.requireNonNull(violations, "violations"));
    Objects.requireNonNull(secrets, "secrets");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
  }

  /** The decision, without the free-text message's variability mattering to a reader. */
  public record DecisionSummary(boolean allowed, String code, String layer, String rule, Integer argIndex) {
    public static DecisionSummary of(Decision d) {
      return new DecisionSummary(
          d.allowed(), d.code(), d.layer(), d.rule(), d.argIndex().isPresent() ? d.argIndex().getAsInt() : null);
    }
  }

  /** The resolved executable: canonical path, SHA-256 of the bytes that ran, and how they were pinned. */
  public record Executable(String path, String sha256, String pinning) {
    public static Executable of(PinnedExecutable p) {
      return new Executable(p.path().toString(), p.sha256(), p.pinning().name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  /**
   * The backend that launched the command, the capabilities it advertised, why it was the one, and
   * the versions of what enforces them ({@link dev.capability.kernel.api.backend.ExecutionBackend#versions()}).
   *
   * @param choice how it was chosen
   * @param reason the choice in words: for {@link Choice#UNISOLATED_FALLBACK}, why no sandbox fitted
   * @param versions component name to version, empty when the backend names none
   */
  public record Backend(String id, Set<IsolationCapability> capabilities, Choice choice, String reason, Map<String, String> versions) {
    public Backend {
      Objects.requireNonNull(id, "id");
      capabilities = Set.copyOf(capabilities);
      Objects.requireNonNull(choice, "choice");
      Objects.requireNonNull(reason, "reason");
      versions = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(versions, "versions")));
    }

    /** A backend that names no versions. */
    public Backend(String id, Set<IsolationCapability> capabilities, Choice choice, String reason) {
      this(id, capabilities, choice, reason, Map.of());
    }

    /** How the backend was chosen; written in JSON in lower case with hyphens ({@code strongest-sandbox}). */
    public enum Choice {
      /** The request named it ({@code --backend}). */
      NAMED,
      /** Nobody named one: the strongest available sandbox that supplies every required capability. */
      STRONGEST_SANDBOX,
      /**
       * Nobody named one and no sandbox fitted: a backend that is not a sandbox, because the operator
       * policy allows that ({@code allowUnisolatedFallback}).
       */
      UNISOLATED_FALLBACK;

      /** The JSON spelling. */
      public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
      }
    }
  }

  /**
   * Names of environment variables the command got, never their values: inherited from the host,
   * set by the operator, and given by the request for this run; {@code accepted} marks the
   * inherited or set names that are on the kernel's deny list and that the operator accepted
   * ({@code environment.acceptDenied}), since each can make a program load code.
   */
  public record Environment(List<String> inherited, List<String> set, List<String> requested, List<String> accepted) {
    public Environment {
      inherited = List.copyOf(inherited);
      set = List.copyOf(set);
      requested = List.copyOf(requested);
      accepted = List.copyOf(accepted);
    }

    /** Names inherited, set and requested, with no deny-listed name accepted. */
    public Environment(List<String> inherited, List<String> set, List<String> requested) {
      this(inherited, set, requested, List.of());
    }

    /** Names inherited and set, with none given by the request. */
    public Environment(List<String> inherited, List<String> set) {
      this(inherited, set, List.of());
    }
  }

  /**
   * Write boundaries of the authority layers, as repository-relative glob patterns; a layer
   * that sets no write scope of its own is absent (null), an empty list allows no writes.
   */
  public record WriteBoundaries(List<String> operator, List<String> contract, List<String> phase, List<String> correction) {
    public WriteBoundaries {
      operator = copyOrNull(operator);
      contract = copyOrNull(contract);
      phase = copyOrNull(phase);
      correction = copyOrNull(correction);
    }

    private static List<String> copyOrNull(List<String> patterns) {
      return patterns == null ? null : List.copyOf(patterns);
    }
  }

  /**
   * One change the repository audit saw.
   *
   * @param path repository-relative POSIX path
   * @param kind {@code CREATED}, {@code MODIFIED}, {@code DELETED}, {@code MODE_CHANGED},
   *     {@code TYPE_CHANGED} or {@code RETARGETED}
   * @param type what the path is (after the command, or before it for a deletion): {@code FILE},
   *     {@code DIRECTORY}, {@code SYMLINK}, {@code OTHER}
   * @param ignored true when {@code .gitignore} rules ignore the path before and after
   */
  public record Change(String path, String kind, String type, boolean ignored) {
    public Change {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(type, "type");
    }
  }

  /**
   * A change the effective authority did not allow.
   *
   * @param path repository-relative POSIX path
   * @param kind the change's kind
   * @param layer the authority layer whose write scope excludes it, or {@code protected}
   * @param rule the rule or pattern set that decided
   * @param reason for a person
   */
  public record Violation(String path, String kind, String layer, String rule, String reason) {
    public Violation {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(layer, "layer");
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * What the secret scan found in produced files and captured output: rules and places, never
   * the secret itself, and what it could not fully scan.
   */
  public record SecretScan(List<SecretFinding> findings, List<ScanGap> gaps) {
    public SecretScan {
      findings = List.copyOf(findings);
      gaps = List.copyOf(gaps);
    }

    public static SecretScan none() {
      return new SecretScan(List.of(), List.of());
    }
  }

  /** A secret rule matched at a line of a repository file or of {@code stdout}/{@code stderr}. */
  public record SecretFinding(String rule, String source, int line) {
    public SecretFinding {
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(source, "source");
    }
  }

  /** Content the scan did not fully see, and why (for example {@code TRUNCATED}). */
  public record ScanGap(String source, String reason) {
    public ScanGap {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Digest of one output stream as kept. */
  public record Stream(String sha256, long bytes, boolean truncated) {
    public static Stream of(CapturedOutput out) {
      return new Stream(out.sha256(), out.size(), out.truncated());
    }
  }
}
