package dev.capability.mcp;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.store.AssumptionStore;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import dev.capability.kernel.api.store.DecisionStore;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.api.store.WorkPlanStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The evidence store the host chose, per repository: where the tools record, and how the ledger
 * tools read it back. The server knows no store of its own; the CLI hands in its SQLite ledger.
 * Every method may throw a {@link dev.capability.kernel.api.CapabilityException} whose code the
 * tool returns.
 */
public interface EvidenceAccess {
  /** The store of {@code repository} (a real path inside the allowed roots); the caller closes it. */
  Store open(Path repository);

  /** The newest {@code limit} records, newest first, as JSON-ready maps. */
  List<Map<String, @Nullable Object>> list(Path repository, int limit);

  /** One record by its sequence number, as a JSON-ready map. */
  Optional<Map<String, @Nullable Object>> show(Path repository, long sequence);

  /** The store's verification, as a JSON-ready map with at least {@code status} ({@code INTACT} when nothing broke). */
  Map<String, @Nullable Object> verify(Path repository);

  /**
   * The store of {@code repository} with its work plan and assumptions (a real path inside the
   * allowed roots); the caller closes it. The work-plan tools read and record through it, and
   * {@code run_command}, {@code check_command} and {@code apply_patch} read the active phase and
   * correction from it. A host that keeps no work plans keeps this default: the work-plan tools
   * then fail with {@link McpCodes#WORK_PLANS_UNAVAILABLE}, and commands run under the operator
   * policy alone.
   *
   * @throws CapabilityException {@link McpCodes#WORK_PLANS_UNAVAILABLE} by default
   */
  default PlanStore openPlans(Path repository) {
    throw new CapabilityException(McpCodes.WORK_PLANS_UNAVAILABLE, "this server's host keeps no work plans");
  }

  /** Whether {@link #openPlans} gives a store; false by default. */
  default boolean keepsWorkPlans() {
    return false;
  }

  /** A repository's store in each of the shapes the kernel and the runtime record into. */
  interface Store extends EvidenceStore, DecisionStore, CapabilityEvidenceStore {}

  /** A repository's store that also holds its work plan and its assumptions. */
  interface PlanStore extends Store, WorkPlanStore, AssumptionStore {}
}
