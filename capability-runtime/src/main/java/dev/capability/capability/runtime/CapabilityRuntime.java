package dev.capability.capability.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.internal.manifest.SchemaGuard;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.plugin.Plugins;
import dev.capability.kernel.core.Backends;
import java.nio.file.Path;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Runs untrusted capability packages: plans, asks the policy, runs the plan on an executor and
 * records a receipt. Build one with {@link #builder()}; by default it uses the deny-all policy and
 * the strongest isolating executor available, and refuses to build when there is none.
 *
 * <p>Executors are {@link ExecutorProvider}s found on the class path ({@link Plugins}); two with
 * one id fail the build naming both classes. They are created with an {@link ExecutorConfig} that
 * carries the kernel's backend registry ({@link Backends}), so the child-JVM executor chooses its
 * backend by the kernel's rule among the same backends {@code exec} would use.
 *
 * <p>The runtime owns the executor it runs on, whether chosen or given: {@link #close()} closes it
 * (a child-JVM executor keeps its sandbox backend open between runs), and with it the backends the
 * runtime found itself (never those given in an {@link ExecutorConfig}). Runs may go on
 * concurrently.
 *
 * <p>Each run is observed as it happens by the {@linkplain CapabilityEventListener event
 * listeners} of the builder and, when one is given, written into an {@linkplain
 * Builder#evidenceStore evidence store} (for example the SQLite ledger): plan, approvals, the
 * kernel's launch and the receipt that names it.
 */
public final class CapabilityRuntime implements AutoCloseable {
  private static final StrictJson OUTPUT = new StrictJson(CapabilityPlans.MAX_INPUT, 64);

  private final EffectPolicy policy;
  private final Executor executor;
  private final List<CapabilityEventListener.Factory> listeners;
  private final @Nullable CapabilityEvidenceStore evidence;
  private final String approver;
  private final boolean redactEvidence;
  private final Clock clock;
  private final Optional<Backends> foundBackends;

  private CapabilityRuntime(Builder builder, Executor executor, Optional<Backends> foundBackends) {
    this.policy = builder.policy;
    this.executor = executor;
    this.foundBackends = foundBackends;
    this.listeners = List.copyOf(builder.listeners);
    this.evidence = builder.evidence;
    this.approver = builder.approver;
    this.redactEvidence = builder.redactEvidence;
    this.clock = builder.clock;
  }

  /** The listeners of one run, the evidence recorder first. */
  private CapabilityEventListener events() {
    List<CapabilityEventListener> observers = new ArrayList<>();
    for (CapabilityEventListener.Factory factory : listeners) {
      observers.add(Objects.requireNonNull(factory.create(), "an event listener factory made null"));
    }
    CapabilityEventListener recorder = evidence == null ? CapabilityEventListener.NONE : new EvidenceRecorder(evidence, approver, redactEvidence);
    return new RunEvents(recorder, observers);
  }

  /** A builder with the defaults: deny-all, strongest isolating executor, no evidence store, no listeners. */
  public static Builder builder() {
    return new Builder();
  }

  /** Closes the executor, and with it what it keeps between runs, then the backends the runtime found. */
  @Override
  public void close() {
    try {
      executor.close();
    } finally {
      foundBackends.ifPresent(Backends::close);
    }
  }

  /** The executor this runtime runs on. */
  public ExecutorIdentity executor() {
    return executor.identity();
  }

  /** Plans {@code inputJson} for {@code pkg} under this runtime's executor and policy. */
  public CapabilityPlan plan(CapabilityPackage pkg, String inputJson) {
    return CapabilityPlans.plan(pkg, inputJson, executor.identity(), policy);
  }

  /** Plans and runs {@code inputJson}; the receipt says whether it ran, failed or was refused. */
  public ExecutionReceipt run(CapabilityPackage pkg, String inputJson) {
    Instant started = clock.instant();
    CapabilityPlan plan = plan(pkg, inputJson);
    CapabilityEventListener events = events();
    events.planCreated(plan);
    return runPlanned(pkg, inputJson, plan, started, events);
  }

  /**
   * Runs a plan approved earlier. The plan is recomputed; any drift (package bytes, input,
   * policy, executor) is refused with {@code PLAN_DRIFT} and a receipt.
   */
  public ExecutionReceipt run(CapabilityPlan approved, CapabilityPackage pkg, String inputJson) {
    Objects.requireNonNull(approved, "approved");
    Instant started = clock.instant();
    CapabilityPlan now = plan(pkg, inputJson);
    CapabilityEventListener events = events();
    events.planCreated(approved);
    try {
      PlanVerifier.verify(approved, now);
    } catch (CapabilityException e) {
      return refused(approved, pkg, inputJson, e, started, events);
    }
    return runPlanned(pkg, inputJson, now, started, events);
  }

  private ExecutionReceipt runPlanned(
      CapabilityPackage pkg, String inputJson, CapabilityPlan plan, Instant started, CapabilityEventListener events) {
    PolicyDecision decision = EffectPolicies.decide(policy, plan);
    for (Approval approval : decision.approvals()) {
      events.approvalGiven(plan, approval);
    }
    events.requestDecided(plan, decision);
    try {
      PlanVerifier.verifyDecision(plan, decision);
    } catch (CapabilityException e) {
      return refused(plan, pkg, inputJson, e, started, events);
    }
    CapabilityRequest request = new CapabilityRequest(pkg, plan, inputJson, decision.granted());
    events.launchStarted(request);
    CapabilityResult result;
    try {
      result = executor.execute(request);
    } catch (CapabilityException e) {
      // The executor refused before launching: for example it cannot confine a granted effect.
      events.launchFailed(request, e);
      return refused(plan, pkg, inputJson, e, started, events);
    }
    events.launchFinished(request, result);
    ExecutionOutcome outcome = result.succeeded() ? ExecutionOutcome.SUCCEEDED : ExecutionOutcome.FAILED;
    String code = result.succeeded() ? CapabilityCodes.SUCCEEDED : CapabilityCodes.CAPABILITY_FAILED;
    String message = result.failure().orElse("succeeded");
    if (result.succeeded()) {
      Optional<String> invalid = outputProblem(pkg.descriptor().outputSchema(), result.output().orElse(""));
      if (invalid.isPresent()) {
        outcome = ExecutionOutcome.FAILED;
        code = CapabilityCodes.OUTPUT_INVALID;
        message = invalid.get();
      }
    }
    ExecutionReceipt receipt =
        new ExecutionReceipt(
            plan.fingerprint(),
            plan.capability(),
            inputJson,
            result.output(),
            pkg.descriptor().effects(),
            decision.granted(),
            result.usedEffects(),
            result.violations(),
            executor.identity().id(),
            result.boundaryApplied(),
            result.attestation(),
            result.hooks(),
            outcome,
            code,
            message,
            started,
            clock.instant(),
            false);
    events.receiptIssued(receipt);
    return receipt;
  }

  private ExecutionReceipt refused(
      CapabilityPlan plan, CapabilityPackage pkg, String inputJson, CapabilityException why, Instant started, CapabilityEventListener events) {
    ExecutionReceipt receipt =
        new ExecutionReceipt(
            plan.fingerprint(),
            plan.capability(),
            inputJson,
            Optional.empty(),
            pkg.descriptor().effects(),
            List.of(),
            List.of(),
            List.of(),
            executor.identity().id(),
            false,
            Optional.empty(),
            List.of(),
            ExecutionOutcome.REFUSED,
            why.code(),
            why.getMessage(),
            started,
            clock.instant(),
            false);
    events.receiptIssued(receipt);
    return receipt;
  }

  private static Optional<String> outputProblem(JsonNode schema, String outputJson) {
    JsonNode output;
    try {
      output = OUTPUT.parse(outputJson, "output");
    } catch (StrictJson.StrictJsonException e) {
      return Optional.of("the output is not strict JSON: " + e.getMessage());
    }
    return SchemaGuard.compile(schema, "output schema").problem(output).map(problem -> "the output does not match the output schema: " + problem);
  }

  /** Configures a {@link CapabilityRuntime}. */
  public static final class Builder {
    private EffectPolicy policy = EffectPolicies.denyAll();
    private @Nullable Executor executor;
    private @Nullable String executorId;
    private final List<CapabilityEventListener.Factory> listeners = new ArrayList<>();
    private @Nullable CapabilityEvidenceStore evidence;
    private String approver = "approval handler";
    private boolean redactEvidence;
    private Clock clock = Clock.systemUTC();
    private ClassLoader classLoader = CapabilityRuntime.class.getClassLoader();
    private @Nullable ExecutorConfig executorConfig;

    private Builder() {}

    /** The policy that decides every plan; deny-all by default. */
    public Builder policy(EffectPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Runs on this executor, whatever its strength; the runtime closes it when it is closed. */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      this.executorId = null;
      return this;
    }

    /**
     * Runs on the installed executor with this id (for example {@code in-process}); this is the
     * only way an explicit-only executor is ever chosen.
     */
    public Builder executor(String id) {
      this.executorId = Objects.requireNonNull(id, "id");
      this.executor = null;
      return this;
    }

    /**
     * Hands every receipt to {@code receipts} as it is issued: a listener that hears only {@link
     * CapabilityEventListener#receiptIssued}.
     */
    public Builder receipts(ReceiptStore receipts) {
      Objects.requireNonNull(receipts, "receipts");
      CapabilityEventListener listener = new CapabilityEventListener() {
        @Override
        public void receiptIssued(ExecutionReceipt receipt) {
          receipts.store(receipt);
        }
      };
      return eventListener(listener);
    }

    /**
     * Records every run in {@code store} as it happens (for example the SQLite ledger): the plan,
     * the approvals given, each launch the kernel attested and the receipt, which names the
     * store's sequence numbers of those launches. The runtime does not close it. A store that
     * fails stops the run with a {@link RunNotRecordedException}: nothing is launched after a
     * record that failed. A store that writes inside the directory the runs are audited in
     * ({@code .capability/} of the repository) should not write on its own while a run is under
     * way (the SQLite ledger's timed checkpoints), or its writes show up in the launch's audit.
     */
    public Builder evidenceStore(CapabilityEvidenceStore store) {
      this.evidence = Objects.requireNonNull(store, "store");
      return this;
    }

    /** Who answers approvals, as the evidence store records it; {@code approval handler} by default. */
    public Builder approver(String approver) {
      Objects.requireNonNull(approver, "approver");
      if (approver.isBlank()) {
        throw new IllegalArgumentException("approver must name someone");
      }
      this.approver = approver;
      return this;
    }

    /**
     * Whether the evidence store gets receipts {@linkplain ExecutionReceipt#redact() redacted}
     * (input and output only as digests); off by default. Listeners and the caller still get the
     * receipt as it is.
     */
    public Builder redactEvidence(boolean redact) {
      this.redactEvidence = redact;
      return this;
    }

    /** Adds {@code listener}, shared by every run (it must then be thread-safe when runs are concurrent). */
    public Builder eventListener(CapabilityEventListener listener) {
      Objects.requireNonNull(listener, "listener");
      return eventListenerFactory(() -> listener);
    }

    /** Adds a factory asked for a fresh listener at the start of each run. */
    public Builder eventListenerFactory(CapabilityEventListener.Factory factory) {
      listeners.add(Objects.requireNonNull(factory, "factory"));
      return this;
    }

    /** The class loader whose class path is searched for executor providers, and for backend providers unless an {@link ExecutorConfig} is given. */
    public Builder classLoader(ClassLoader classLoader) {
      this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
      return this;
    }

    /**
     * What an installed executor is created with: the base directory, the backends it may use and
     * its settings. By default the working directory, every backend on the class path of {@link
     * #classLoader} (probed only if the executor asks for one, and closed with the runtime) and no
     * settings. Backends given here are the host's: the runtime never closes them.
     */
    public Builder executorConfig(ExecutorConfig config) {
      this.executorConfig = Objects.requireNonNull(config, "config");
      return this;
    }

    /** The clock for receipt timings. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the runtime.
     *
     * @throws CapabilityException {@code EXECUTOR_UNKNOWN} for an id no installed executor has,
     *     {@code ISOLATION_UNAVAILABLE} when the chosen executor cannot run here or no isolating
     *     executor is available, {@code PLUGIN_DUPLICATE} naming both classes when two executor
     *     providers claim one id
     */
    public CapabilityRuntime build() {
      if (executor != null) {
        return new CapabilityRuntime(this, requireAvailable(executor), Optional.empty());
      }
      Optional<Backends> found =
          executorConfig == null ? Optional.of(Backends.discover(classLoader, BackendConfig.defaults())) : Optional.empty();
      ExecutorConfig config = found.map(backends -> ExecutorConfig.of(Path.of("").toAbsolutePath(), backends)).orElse(executorConfig);
      try {
        return new CapabilityRuntime(this, chooseExecutor(config), found);
      } catch (RuntimeException e) {
        found.ifPresent(Backends::close);
        throw e;
      }
    }

    private Executor chooseExecutor(ExecutorConfig config) {
      Map<String, ExecutorProvider> installed = Plugins.load(ExecutorProvider.class, ExecutorProvider::id, classLoader);
      if (executorId != null) {
        ExecutorProvider provider = installed.get(executorId);
        if (provider == null) {
          throw new CapabilityException(
              CapabilityCodes.EXECUTOR_UNKNOWN,
              "no executor '" + executorId + "' is installed; installed: " + installed.keySet().stream().sorted().toList());
        }
        ExecutorProvider.Availability availability = provider.probe();
        if (!availability.available()) {
          throw new CapabilityException(
              CapabilityCodes.ISOLATION_UNAVAILABLE, "executor '" + executorId + "' cannot run on this machine: " + availability.reason());
        }
        Executor created = provider.create(config);
        if (!created.available()) {
          created.close();
          throw unavailable(created);
        }
        return created;
      }
      // Every available executor is created, since only an executor knows its strength; the
      // strongest isolating one is kept and the others closed.
      List<Executor> candidates = new ArrayList<>();
      List<String> unfit = new ArrayList<>();
      for (ExecutorProvider provider : installed.values()) {
        ExecutorProvider.Availability availability = provider.probe();
        if (!availability.available()) {
          unfit.add(provider.id() + " (unavailable: " + availability.reason() + ")");
          continue;
        }
        Executor created;
        try {
          created = provider.create(config);
        } catch (CapabilityException e) {
          unfit.add(provider.id() + " (" + e.code() + ": " + e.getMessage() + ")");
          continue;
        }
        if (created.explicitOnly() || created.isolationStrength() <= 0) {
          unfit.add(provider.id() + " (no boundary: only when named)");
          created.close();
        } else if (!created.available()) {
          unfit.add(provider.id() + " (cannot run on this machine)");
          created.close();
        } else {
          candidates.add(created);
        }
      }
      Optional<Executor> strongest =
          candidates.stream()
              .max(Comparator.comparingInt(Executor::isolationStrength)
                  .thenComparing(candidate -> candidate.identity().id(), Comparator.reverseOrder()));
      candidates.stream().filter(candidate -> candidate != strongest.orElse(null)).forEach(Executor::close);
      return strongest.orElseThrow(
          () ->
              new CapabilityException(
                  CapabilityCodes.ISOLATION_UNAVAILABLE,
                  "no isolating executor is available here ("
                      + (unfit.isEmpty() ? "no executor is installed" : String.join("; ", unfit))
                      + "); name one explicitly to run without isolation"));
    }

    private static Executor requireAvailable(Executor chosen) {
      if (!chosen.available()) {
        throw unavailable(chosen);
      }
      return chosen;
    }

    private static CapabilityException unavailable(Executor chosen) {
      return new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE, "executor '" + chosen.identity().id() + "' cannot run on this machine");
    }
  }
}
