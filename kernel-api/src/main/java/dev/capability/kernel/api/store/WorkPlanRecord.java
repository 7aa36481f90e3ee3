package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One revision of a work plan, as saved or amended. Every revision is kept; the revision with the
 * highest number is the plan in force.
 *
 * @param workPlanId the work plan's id, the same for all its revisions
 * @param revision the revision's number, from 1, one more than the revision it amends
 * @param revisionHash the SHA-256 of the plan's canonical JSON, as {@code sha256:<hex>}
 * @param document the revision's JSON form: the effective plan, the patch that made it
 *     from the previous revision (absent for revision 1), and the warnings it was saved with, as
 *     plain maps, lists, strings, numbers and booleans
 */
public record WorkPlanRecord(String workPlanId, int revision, String revisionHash, Map<String, @Nullable Object> document) {
  public WorkPlanRecord {
    Records.requireText(workPlanId, "workPlanId");
    if (revision < 1) {
      throw new IllegalArgumentException("revisions start at 1, was " + revision);
    }
    Records.requireText(revisionHash, "revisionHash");
    document = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(document, "document")));
  }
}
