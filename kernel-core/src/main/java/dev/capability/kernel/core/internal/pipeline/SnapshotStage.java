package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.core.internal.audit.RepositorySnapshot;
import dev.capability.kernel.core.internal.audit.WorkingTreeHash;

/**
 * Stage 7, when the request names a repository: a stat-based snapshot for the write audit, and
 * the Git tree hash of the working tree as it stands before the command. A repository that
 * cannot be read is an error before launch.
 */
final class SnapshotStage implements Stage {
  @Override
  public void apply(ExecutionContext context) {
    context.repository.ifPresent(repository -> {
      context.snapshot = RepositorySnapshot.take(repository);
      context.inputTreeHash = WorkingTreeHash.of(repository);
    });
  }
}
