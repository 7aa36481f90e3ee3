package dev.capability.capability.runtime.internal.policy;

import dev.capability.capability.runtime.Approval;
import dev.capability.capability.runtime.ApprovalHandler;
import dev.capability.capability.runtime.ApprovalRequest;
import dev.capability.capability.runtime.CapabilityCodes;
import java.time.Duration;
import java.util.HashSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Calls an {@link ApprovalHandler} on its own thread with a bounded wait and turns every failure
 * into a refusal whose reason starts with the code: a handler can delay a decision, never force
 * one.
 */
public final class BoundedApprovals {
  private final ApprovalHandler handler;
  private final Duration timeout;

  public BoundedApprovals(ApprovalHandler handler, Duration timeout) {
    this.handler = handler;
    this.timeout = timeout;
  }

  public Approval review(ApprovalRequest request) {
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "capability-approval");
              t.setDaemon(true);
              return t;
            });
    try {
      Future<Approval> answer = thread.submit(() -> handler.review(request));
      Approval approval;
      try {
        approval = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        answer.cancel(true);
        return Approval.refuse(request, CapabilityCodes.APPROVAL_TIMED_OUT + ": no answer within " + timeout);
      } catch (ExecutionException e) {
        return Approval.refuse(request, CapabilityCodes.APPROVAL_FAILED + ": the approval handler threw " + e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Approval.refuse(request, CapabilityCodes.APPROVAL_FAILED + ": interrupted while waiting for approval");
      }
      return validate(request, approval);
    } finally {
      thread.shutdownNow();
    }
  }

  private static Approval validate(ApprovalRequest request, Approval approval) {
    if (approval == null) {
      return Approval.refuse(request, CapabilityCodes.APPROVAL_INVALID + ": the approval handler answered null");
    }
    if (!approval.planFingerprint().equals(request.planFingerprint())) {
      return Approval.refuse(
          request, CapabilityCodes.APPROVAL_NOT_FOR_PLAN + ": the approval is for plan " + approval.planFingerprint());
    }
    if (!approval.approved()) {
      return Approval.refuse(request, CapabilityCodes.APPROVAL_REFUSED + ": " + approval.reason());
    }
    if (!new HashSet<>(approval.effects()).equals(new HashSet<>(request.effects()))
        || approval.effects().size() != request.effects().size()) {
      return Approval.refuse(
          request, CapabilityCodes.APPROVAL_INVALID + ": the approval names other effects than those requested");
    }
    return approval;
  }
}
