package dev.capability.kernel.api.store;

import java.util.List;
import java.util.Set;

/**
 * The operator's cross-project playbook: correction anti-patterns ({@link PlaybookEntry}) recorded
 * when an assumption proved wrong, queried when a new plan is saved so the agent is told what went
 * wrong before on files like those it is about to write. It holds vocabulary tokens only, never a
 * path, a file name or a file's content, and no project identity: an entry says nothing about
 * where it was learned.
 *
 * <p>A playbook is opt-in: a store exists only when the operator enabled it.
 */
public interface PlaybookStore {

  /**
   * Records one more occurrence of {@code entry}, durably before returning.
   *
   * @return how many times that entry has been recorded now, counting this one
   */
  long record(PlaybookEntry entry);

  /**
   * The patterns that {@linkplain PlaybookEntry#concerns concern} files of {@code languages} and
   * {@code roles} (an empty set stands for any), the most frequent first; ties in the order of
   * their members.
   */
  List<PlaybookPattern> concerning(Set<String> languages, Set<String> roles);
}
