package dev.capability.capability.runtime;

import org.jspecify.annotations.Nullable;

/**
 * Asks a person or a system whether a plan may have the mutating or open-world effects it
 * requests. The permissive policy calls it with a bounded wait; throwing, timing out, returning
 * {@code null} or an approval for another plan or other effects is a denial.
 */
@FunctionalInterface
public interface ApprovalHandler {
  @Nullable Approval review(ApprovalRequest request);
}
