package dev.capability.capability.runtime;

import dev.capability.kernel.api.CapabilityException;

/**
 * Observes one run of the runtime as it happens, in the style of OkHttp's {@code EventListener}:
 * evidence stores, metrics and tests all watch this one stream. The runtime asks its {@link
 * Factory factories} for a fresh listener per run, so a listener may keep what it saw of its run.
 *
 * <p>For one run the events come in this order, on the thread that called {@code run}: {@link
 * #planCreated}; then, unless the plan drifted from an approved one, each {@link #approvalGiven}
 * and {@link #requestDecided}; then, when the decision allowed the run, {@link #launchStarted}
 * followed by exactly one of {@link #launchFinished} and {@link #launchFailed}; last {@link
 * #receiptIssued}. A run refused before it had a plan (unreadable input, say) has no events.
 *
 * <p>A listener that throws stops the run there: before a launch, nothing is launched. An
 * executor that throws anything but a {@code CapabilityException} (a defect) ends the run without
 * a {@link #launchFailed} or a receipt; the exception reaches the caller as thrown. Every method
 * does nothing by default.
 */
public interface CapabilityEventListener {

  /** A listener that ignores everything. */
  CapabilityEventListener NONE = new CapabilityEventListener() {};

  /** Makes the listener of one run. */
  @FunctionalInterface
  interface Factory {
    /** The listener for a run that is about to start. */
    CapabilityEventListener create();
  }

  /** The plan this run carries out: the one it made, or the approved plan it was given. */
  default void planCreated(CapabilityPlan plan) {}

  /** An approver answered the policy about {@code plan}; {@link Approval#approved()} says how. */
  default void approvalGiven(CapabilityPlan plan, Approval approval) {}

  /** The policy decided {@code plan}. */
  default void requestDecided(CapabilityPlan plan, PolicyDecision decision) {}

  /** The executor is about to run {@code request}. */
  default void launchStarted(CapabilityRequest request) {}

  /** The executor ran {@code request}; the capability may still have failed (see the result). */
  default void launchFinished(CapabilityRequest request, CapabilityResult result) {}

  /** The executor could not run {@code request} at all; the run is refused with {@code failure}. */
  default void launchFailed(CapabilityRequest request, CapabilityException failure) {}

  /** The run ended with {@code receipt}, whether it ran, failed or was refused. */
  default void receiptIssued(ExecutionReceipt receipt) {}
}
