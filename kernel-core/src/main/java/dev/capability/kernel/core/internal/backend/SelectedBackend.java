package dev.capability.kernel.core.internal.backend;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.Objects;

/**
 * The backend a run gets, and why: what the attestation records beside the backend's id.
 *
 * @param backend the backend to launch with
 * @param choice how it was chosen
 * @param reason the choice in words
 */
public record SelectedBackend(ExecutionBackend backend, Attestation.Backend.Choice choice, String reason) {
  public SelectedBackend {
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(choice, "choice");
    Objects.requireNonNull(reason, "reason");
  }
}
