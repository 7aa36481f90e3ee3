package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.core.internal.authority.WriteScopeRoots;

/**
 * Stage 7, before the snapshot, when the request names a repository: the write scopes' roots that
 * do not exist yet ({@code target} of {@code target/**} on a fresh clone) are created, never
 * through a symbolic link, so that a backend can mount them; what was created is attested. A root
 * that cannot be created safely refuses the command before the snapshot. {@code check} never gets
 * here, so it changes nothing on disk.
 */
final class CreateScopeRootsStage implements Stage {
  @Override
  public void apply(ExecutionContext context) {
    if (context.repository.isEmpty()) {
      return;
    }
    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(context.authority);
    context.createdScopeRoots = creation.created();
    creation.refusal().ifPresent(context::deny);
  }
}
