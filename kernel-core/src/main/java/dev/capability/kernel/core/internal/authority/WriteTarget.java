package dev.capability.kernel.core.internal.authority;

import java.util.Objects;

/**
 * A path argument that the policy marks as written ({@code "write": true}), to be decided by the
 * effective authority before launch.
 *
 * @param argIndex the index into argv of the argument that holds the path
 * @param path the path as the command gets it, relative to its working directory
 */
public record WriteTarget(int argIndex, String path) {
  public WriteTarget {
    Objects.requireNonNull(path, "path");
    if (argIndex < 0) {
      throw new IllegalArgumentException("argIndex must not be negative, was " + argIndex);
    }
  }
}
