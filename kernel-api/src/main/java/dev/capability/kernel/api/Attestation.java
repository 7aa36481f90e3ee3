package dev.capability.kernel.api;

import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What the kernel can state about one execution or denial: what was asked, under which policy,
 * which bytes ran where, with which environment names (never values), and what came out.
 * Serialized with exactly these field names; see {@code docs/attestation.md} and its JSON Schema.
 *
 * <p>Fields that do not apply are null ({@code executable} and {@code backend} of a command denied
 * before resolution, {@code exitCode} of a command that did not exit by itself).
 *
 * <p>Build one with {@link #builder()}, not the canonical constructor: fields added later get a
 * default in the builder, so code that builds attestations keeps compiling.
 * {@link AttestationJson} writes an attestation as JSON and reads it back.
 */
public record Attestation(
    String kernelVersion,
    ExecutionStatus status,
    List<String> argv,
    String commandSpecHash,
    DecisionSummary decision,
    String policyHash,
    String policySource,
    @Nullable Executable executable,
    @Nullable Backend backend,
    Environment environment,
    NetworkMode network,
    List<EgressConnection> egress,
    ProjectWriteMode projectWrites,
    WriteBoundaries writeBoundaries,
    List<String> createdScopeRoots,
    Map<String, String> toolConfiguration,
    List<String> neutralization,
    List<String> filesProduced,
    List<Change> changes,
    List<Violation> violations,
    SecretScan secrets,
    @Nullable String inputTreeHash,
    Stream stdout,
    Stream stderr,
    Instant startedAt,
    Instant finishedAt,
    boolean timedOut,
    boolean outputLimitHit,
    @Nullable Integer exitCode,
    @Nullable Workspace workspace) {

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
    egress = List.copyOf(Objects.requireNonNull(egress, "egress"));
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

  /** A builder with no field set but the defaults {@link Builder} lists. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds an {@link Attestation}. Required, with no default: {@code kernelVersion}, {@code
   * status}, {@code argv}, {@code commandSpecHash}, {@code decision}, {@code policyHash}, {@code
   * policySource}, {@code network}, {@code projectWrites}, {@code writeBoundaries}, {@code
   * startedAt} and {@code finishedAt}; {@link #build()} throws {@link NullPointerException} naming
   * the first one missing. Everything else defaults to what an attestation says when it does not
   * apply: no executable, backend, input tree hash, exit code or shipped workspace (null); no
   * environment names, created scope roots, tool configuration, neutralization, files, changes,
   * violations or secret findings (empty); empty output streams; not timed out and no output limit
   * hit.
   */
  public static final class Builder {
    private @Nullable String kernelVersion;
    private @Nullable ExecutionStatus status;
    private @Nullable List<String> argv;
    private @Nullable String commandSpecHash;
    private @Nullable DecisionSummary decision;
    private @Nullable String policyHash;
    private @Nullable String policySource;
    private @Nullable Executable executable;
    private @Nullable Backend backend;
    private Environment environment = new Environment(List.of(), List.of());
    private @Nullable NetworkMode network;
    private @Nullable ProjectWriteMode projectWrites;
    private @Nullable WriteBoundaries writeBoundaries;
    private List<String> createdScopeRoots = List.of();
    private Map<String, String> toolConfiguration = Map.of();
    private List<String> neutralization = List.of();
    private List<String> filesProduced = List.of();
    private List<Change> changes = List.of();
    private List<Violation> violations = List.of();
    private SecretScan secrets = SecretScan.none();
    private @Nullable String inputTreeHash;
    private Stream stdout = Stream.of(CapturedOutput.empty());
    private Stream stderr = Stream.of(CapturedOutput.empty());
    private @Nullable Instant startedAt;
    private @Nullable Instant finishedAt;
    private boolean timedOut;
    private boolean outputLimitHit;
    private @Nullable Integer exitCode;
    private List<EgressConnection> egress = List.of();
    private @Nullable Workspace workspace;

    private Builder() {}

    public Builder kernelVersion(String kernelVersion) {
      this.kernelVersion = kernelVersion;
      return this;
    }

    public Builder status(ExecutionStatus status) {
      this.status = status;
      return this;
    }

    public Builder argv(List<String> argv) {
      this.argv = argv;
      return this;
    }

    public Builder commandSpecHash(String commandSpecHash) {
      this.commandSpecHash = commandSpecHash;
      return this;
    }

    public Builder decision(DecisionSummary decision) {
      this.decision = decision;
      return this;
    }

    /** The decision as {@link DecisionSummary#of(Decision)} summarizes it. */
    public Builder decision(Decision decision) {
      return decision(DecisionSummary.of(decision));
    }

    public Builder policyHash(String policyHash) {
      this.policyHash = policyHash;
      return this;
    }

    public Builder policySource(String policySource) {
      this.policySource = policySource;
      return this;
    }

    /** The executable that ran; null (the default) when the command was denied before resolution. */
    public Builder executable(@Nullable Executable executable) {
      this.executable = executable;
      return this;
    }

    /** The backend that launched the command; null (the default) when none did. */
    public Builder backend(@Nullable Backend backend) {
      this.backend = backend;
      return this;
    }

    public Builder environment(Environment environment) {
      this.environment = environment;
      return this;
    }

    /** The network the command got; in JSON {@code none} or {@code host}. */
    public Builder network(NetworkMode network) {
      this.network = network;
      return this;
    }

    /** Whether the command could write the repository; in JSON {@code read-only} or {@code scoped}. */
    public Builder projectWrites(ProjectWriteMode projectWrites) {
      this.projectWrites = projectWrites;
      return this;
    }

    public Builder writeBoundaries(WriteBoundaries writeBoundaries) {
      this.writeBoundaries = writeBoundaries;
      return this;
    }

    public Builder createdScopeRoots(List<String> createdScopeRoots) {
      this.createdScopeRoots = createdScopeRoots;
      return this;
    }

    public Builder toolConfiguration(Map<String, String> toolConfiguration) {
      this.toolConfiguration = toolConfiguration;
      return this;
    }

    public Builder neutralization(List<String> neutralization) {
      this.neutralization = neutralization;
      return this;
    }

    public Builder filesProduced(List<String> filesProduced) {
      this.filesProduced = filesProduced;
      return this;
    }

    public Builder changes(List<Change> changes) {
      this.changes = changes;
      return this;
    }

    public Builder violations(List<Violation> violations) {
      this.violations = violations;
      return this;
    }

    public Builder secrets(SecretScan secrets) {
      this.secrets = secrets;
      return this;
    }

    /** The hash of the input tree; null (the default) when there was no repository audit. */
    public Builder inputTreeHash(@Nullable String inputTreeHash) {
      this.inputTreeHash = inputTreeHash;
      return this;
    }

    public Builder stdout(Stream stdout) {
      this.stdout = stdout;
      return this;
    }

    public Builder stderr(Stream stderr) {
      this.stderr = stderr;
      return this;
    }

    public Builder startedAt(Instant startedAt) {
      this.startedAt = startedAt;
      return this;
    }

    public Builder finishedAt(Instant finishedAt) {
      this.finishedAt = finishedAt;
      return this;
    }

    public Builder timedOut(boolean timedOut) {
      this.timedOut = timedOut;
      return this;
    }

    public Builder outputLimitHit(boolean outputLimitHit) {
      this.outputLimitHit = outputLimitHit;
      return this;
    }

    /**
     * Every connection attempt through the run's egress proxy, allowed or refused; empty (the
     * default) unless the network was {@link NetworkMode#FILTERED}.
     */
    public Builder egress(List<EgressConnection> egress) {
      this.egress = List.copyOf(egress);
      return this;
    }

    /** The exit code; null (the default) when the command did not exit by itself. */
    public Builder exitCode(@Nullable Integer exitCode) {
      this.exitCode = exitCode;
      return this;
    }

    /**
     * The workspace shipped to a backend that cannot bind the repository; null (the default) when
     * none was shipped, as on every local backend.
     */
    public Builder workspace(@Nullable Workspace workspace) {
      this.workspace = workspace;
      return this;
    }

    /** @throws NullPointerException naming the first required field not set */
    public Attestation build() {
      return new Attestation(kernelVersion, status, argv, commandSpecHash, decision, policyHash, policySource, executable,
          backend, environment, network, egress, projectWrites, writeBoundaries, createdScopeRoots, toolConfiguration,
          neutralization, filesProduced, changes, violations, secrets, inputTreeHash, stdout, stderr, startedAt,
          finishedAt, timedOut, outputLimitHit, exitCode, workspace);
    }
  }

  /** The decision, without the free-text message's variability mattering to a reader. */
  public record DecisionSummary(boolean allowed, String code, @Nullable String layer, @Nullable String rule, @Nullable Integer argIndex) {
    public static DecisionSummary of(Decision d) {
      return new DecisionSummary(
          d.allowed(), d.code(), d.layer(), d.rule(), d.argIndex().isPresent() ? d.argIndex().getAsInt() : null);
    }
  }

  /**
   * The resolved executable: canonical path, SHA-256 of the bytes that ran, and how they were
   * pinned (in JSON in lower case, {@code proc_fd}).
   */
  public record Executable(String path, String sha256, PinnedExecutable.Pinning pinning) {
    public Executable {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(sha256, "sha256");
      Objects.requireNonNull(pinning, "pinning");
    }

    public static Executable of(PinnedExecutable p) {
      return new Executable(p.path().toString(), p.sha256(), p.pinning());
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
  public record WriteBoundaries(
      @Nullable List<String> operator, @Nullable List<String> contract, @Nullable List<String> phase, @Nullable List<String> correction) {
    public WriteBoundaries {
      operator = copyOrNull(operator);
      contract = copyOrNull(contract);
      phase = copyOrNull(phase);
      correction = copyOrNull(correction);
    }

    private static @Nullable List<String> copyOrNull(@Nullable List<String> patterns) {
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

  /**
   * The workspace shipped to a remote backend and what became of the writable roots it returned.
   *
   * @param inputBytes the bytes of the input archive
   * @param inputEntries the entries of the input archive
   * @param inputSha256 the hex SHA-256 of the input archive as written
   * @param returnedBytes the bytes of the returned archive read (up to a refusal)
   * @param outcome {@code APPLIED}, or the code of the refusal ({@code WORKSPACE_RETURN_...}) or
   *     {@code WORKSPACE_NOT_RETURNED}
   */
  public record Workspace(long inputBytes, long inputEntries, String inputSha256, long returnedBytes, String outcome) {
    /** The {@link #outcome()} of a returned archive that was applied. */
    public static final String APPLIED = "APPLIED";

    public Workspace {
      Objects.requireNonNull(inputSha256, "inputSha256");
      Objects.requireNonNull(outcome, "outcome");
      if (inputBytes < 0 || inputEntries < 0 || returnedBytes < 0) {
        throw new IllegalArgumentException("workspace byte and entry counts must not be negative");
      }
    }
  }

  /** Digest of one output stream as kept. */
  public record Stream(String sha256, long bytes, boolean truncated) {
    public static Stream of(CapturedOutput out) {
      return new Stream(out.sha256(), out.size(), out.truncated());
    }
  }
}
