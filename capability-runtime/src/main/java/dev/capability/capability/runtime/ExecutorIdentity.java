package dev.capability.capability.runtime;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The executor a plan is made for and what it advertises (for example its isolation), bound into
 * the plan so that a plan approved for one boundary cannot run under a weaker one.
 */
public record ExecutorIdentity(String id, SortedMap<String, String> advertises) {
  public ExecutorIdentity {
    Objects.requireNonNull(id, "id");
    advertises = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(advertises, "advertises")));
  }
}
