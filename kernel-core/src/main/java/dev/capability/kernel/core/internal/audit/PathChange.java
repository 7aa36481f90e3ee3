package dev.capability.kernel.core.internal.audit;

import java.util.Objects;

/**
 * One change at one path.
 *
 * @param path repository-relative POSIX path, never empty, never starting with {@code /}
 * @param kind what changed
 * @param type the entry type after the change; for {@link ChangeKind#DELETED} the type it had
 * @param ignored whether Git ignore rules ({@code .gitignore} files and {@code info/exclude}) cover
 *     the path both before and after the change; ignored paths are reported all the same
 */
public record PathChange(String path, ChangeKind kind, EntryType type, boolean ignored) {

  public PathChange {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(type, "type");
    if (path.isEmpty() || path.startsWith("/") || path.endsWith("/")) {
      throw new IllegalArgumentException("not a repository-relative path: '" + path + "'");
    }
  }
}
