package dev.capability.capability.runtime;

import dev.capability.kernel.api.CapabilityException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The listeners of one run: the evidence recorder first, whose failures become a {@link
 * RunNotRecordedException}, then the host's listeners in the order they were added, whose
 * exceptions reach the host as thrown.
 */
final class RunEvents implements CapabilityEventListener {
  private final CapabilityEventListener evidence;
  private final List<CapabilityEventListener> observers;

  RunEvents(CapabilityEventListener evidence, List<CapabilityEventListener> observers) {
    this.evidence = evidence;
    this.observers = List.copyOf(observers);
  }

  @Override
  public void planCreated(CapabilityPlan plan) {
    recording("plan", null, () -> evidence.planCreated(plan));
    observers.forEach(o -> o.planCreated(plan));
  }

  @Override
  public void approvalGiven(CapabilityPlan plan, Approval approval) {
    recording("approval", null, () -> evidence.approvalGiven(plan, approval));
    observers.forEach(o -> o.approvalGiven(plan, approval));
  }

  @Override
  public void requestDecided(CapabilityPlan plan, PolicyDecision decision) {
    recording("decision", null, () -> evidence.requestDecided(plan, decision));
    observers.forEach(o -> o.requestDecided(plan, decision));
  }

  @Override
  public void launchStarted(CapabilityRequest request) {
    recording("launch", null, () -> evidence.launchStarted(request));
    observers.forEach(o -> o.launchStarted(request));
  }

  @Override
  public void launchFinished(CapabilityRequest request, CapabilityResult result) {
    recording("execution", null, () -> evidence.launchFinished(request, result));
    observers.forEach(o -> o.launchFinished(request, result));
  }

  @Override
  public void launchFailed(CapabilityRequest request, CapabilityException failure) {
    recording("failed launch", null, () -> evidence.launchFailed(request, failure));
    observers.forEach(o -> o.launchFailed(request, failure));
  }

  @Override
  public void receiptIssued(ExecutionReceipt receipt) {
    recording("receipt", receipt, () -> evidence.receiptIssued(receipt));
    observers.forEach(o -> o.receiptIssued(receipt));
  }

  private static void recording(String what, @Nullable ExecutionReceipt receipt, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      throw RunNotRecordedException.of(what, receipt, e);
    }
  }
}
