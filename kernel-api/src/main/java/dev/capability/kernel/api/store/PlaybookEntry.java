package dev.capability.kernel.api.store;

import dev.capability.kernel.api.CapabilityException;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * One correction anti-pattern, as the cross-project playbook keeps it: why an assumption was
 * wrong, what kind of assumption it was, and the languages and roles of the files the correction
 * touched. Every member is a short vocabulary token ({@code misread-api}, {@code java},
 * {@code test}): a lowercase letter, then lowercase letters, digits and single {@code -} between
 * them, at most {@value #MAX_TOKEN_LENGTH} characters. A path, a file name, a sentence or anything
 * longer cannot be a token, so no entry can carry a project's paths or its files' contents.
 *
 * @param rootCause the category of the root cause, for example {@code misread-api}
 * @param assumptionKind the kind of assumption that was wrong, for example {@code api-behaviour}
 * @param languages the languages of the files the correction touched (empty: unknown), at most {@value #MAX_TRAITS}
 * @param roles their roles, for example {@code source}, {@code test}, {@code build} (empty: unknown), at most {@value #MAX_TRAITS}
 */
public record PlaybookEntry(String rootCause, String assumptionKind, Set<String> languages, Set<String> roles) {
  /** The code of the {@link CapabilityException} a member that is not a token is refused with. */
  public static final String INVALID = "PLAYBOOK_ENTRY_INVALID";
  /** The longest token. */
  public static final int MAX_TOKEN_LENGTH = 32;
  /** The most languages, and the most roles, one entry names. */
  public static final int MAX_TRAITS = 8;

  private static final Pattern TOKEN = Pattern.compile("[a-z][a-z0-9]*(?:-[a-z0-9]+)*");

  /** @throws CapabilityException {@value #INVALID} naming the member that is not a token, without repeating its value */
  public PlaybookEntry {
    requireToken(rootCause, "rootCause");
    requireToken(assumptionKind, "assumptionKind");
    languages = tokens(languages, "languages");
    roles = tokens(roles, "roles");
  }

  /**
   * Whether this pattern concerns files of {@code otherLanguages} and {@code otherRoles}: they
   * share a role and a language, where an empty set, on either side, stands for any.
   */
  public boolean concerns(Set<String> otherLanguages, Set<String> otherRoles) {
    return overlaps(roles, Objects.requireNonNull(otherRoles, "otherRoles")) && overlaps(languages, Objects.requireNonNull(otherLanguages, "otherLanguages"));
  }

  /** Whether {@code value} is a token this record accepts. */
  public static boolean isToken(String value) {
    return value != null && value.length() <= MAX_TOKEN_LENGTH && TOKEN.matcher(value).matches();
  }

  private static boolean overlaps(Set<String> a, Set<String> b) {
    return a.isEmpty() || b.isEmpty() || !Collections.disjoint(a, b);
  }

  private static void requireToken(String value, String name) {
    if (!isToken(value)) {
      // The value is not repeated: a refused value may be exactly the path or text that must not travel.
      throw new CapabilityException(INVALID, "the playbook entry's " + name + " is not a token (a lowercase letter, then lowercase"
          + " letters, digits and single '-', at most " + MAX_TOKEN_LENGTH + " characters; "
          + (value == null ? "it is missing" : "it has " + value.length() + " characters") + "): it names a category, never a path or a sentence");
    }
  }

  private static Set<String> tokens(Set<String> values, String name) {
    if (values == null) {
      throw new CapabilityException(INVALID, "the playbook entry's " + name + " are missing");
    }
    if (values.size() > MAX_TRAITS) {
      throw new CapabilityException(INVALID, "the playbook entry names " + values.size() + " " + name + "; at most " + MAX_TRAITS);
    }
    SortedSet<String> sorted = new TreeSet<>();
    for (String value : values) {
      requireToken(value, name);
      sorted.add(value);
    }
    return Collections.unmodifiableSortedSet(sorted);
  }
}
