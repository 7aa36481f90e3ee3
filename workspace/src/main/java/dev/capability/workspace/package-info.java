/**
 * The shipped workspace ({@link dev.capability.kernel.api.backend.ShippedWorkspace}) for a local
 * repository: {@link dev.capability.workspace.RepositoryWorkspace} writes the repository as a tar
 * archive and checks the archive of writable roots a backend returns like a hostile package
 * before anything of it reaches the host; {@link dev.capability.workspace.WorkspaceOutcome} is
 * what happened, as a value. The codes are in {@link dev.capability.workspace.WorkspaceCodes}.
 */
@NullMarked
package dev.capability.workspace;

import org.jspecify.annotations.NullMarked;
