package dev.capability.backend.bwrap.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One step of building the sandbox's filesystem, in the order bwrap applies them: a later mount
 * covers an earlier one at or above its destination.
 *
 * @param kind what to do
 * @param source the host path to bind, or the symlink's target text; null for the others
 * @param destination where in the sandbox
 * @param sizeBytes the size of a tmpfs, when limited
 */
record MountOp(Kind kind, String source, Path destination, OptionalLong sizeBytes) {

  /** The bwrap operations this backend uses. */
  enum Kind {
    READ_ONLY_BIND,
    BIND,
    SYMLINK,
    PROC,
    DEV,
    TMPFS,
    REMOUNT_READ_ONLY
  }

  MountOp {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(sizeBytes, "sizeBytes");
    boolean needsSource = kind == Kind.READ_ONLY_BIND || kind == Kind.BIND || kind == Kind.SYMLINK;
    if (needsSource != (source != null)) {
      throw new IllegalArgumentException(
          kind + " " + (needsSource ? "needs" : "takes no") + " source");
    }
    if (sizeBytes.isPresent() && kind != Kind.TMPFS) {
      throw new IllegalArgumentException("only a tmpfs has a size");
    }
  }

  static MountOp readOnlyBind(Path source, Path destination) {
    return new MountOp(Kind.READ_ONLY_BIND, source.toString(), destination, OptionalLong.empty());
  }

  static MountOp bind(Path source, Path destination) {
    return new MountOp(Kind.BIND, source.toString(), destination, OptionalLong.empty());
  }

  static MountOp symlink(String target, Path destination) {
    return new MountOp(Kind.SYMLINK, target, destination, OptionalLong.empty());
  }

  static MountOp proc(Path destination) {
    return new MountOp(Kind.PROC, null, destination, OptionalLong.empty());
  }

  static MountOp dev(Path destination) {
    return new MountOp(Kind.DEV, null, destination, OptionalLong.empty());
  }

  static MountOp tmpfs(Path destination, OptionalLong sizeBytes) {
    return new MountOp(Kind.TMPFS, null, destination, sizeBytes);
  }

  static MountOp remountReadOnly(Path destination) {
    return new MountOp(Kind.REMOUNT_READ_ONLY, null, destination, OptionalLong.empty());
  }

  /** Whether this step binds a host path (read-only or not). */
  boolean isBind() {
    return kind == Kind.READ_ONLY_BIND || kind == Kind.BIND;
  }

  /** The bwrap options for this step, every source bound by path. */
  List<String> options() {
    return options(OptionalInt.empty());
  }

  /**
   * The bwrap options for this step.
   *
   * @param descriptor for a bind, the descriptor bwrap holds its source open on: the source is then
   *     bound by descriptor, never looked up by path again
   */
  List<String> options(OptionalInt descriptor) {
    String dest = destination.toString();
    return switch (kind) {
      case READ_ONLY_BIND ->
          descriptor.isEmpty()
              ? List.of("--ro-bind", source, dest)
              : List.of("--ro-bind-fd", Integer.toString(descriptor.getAsInt()), dest);
      case BIND ->
          descriptor.isEmpty()
              ? List.of("--bind", source, dest)
              : List.of("--bind-fd", Integer.toString(descriptor.getAsInt()), dest);
      case SYMLINK -> List.of("--symlink", source, dest);
      case PROC -> List.of("--proc", dest);
      case DEV -> List.of("--dev", dest);
      case TMPFS ->
          sizeBytes.isPresent()
              ? List.of("--size", Long.toString(sizeBytes.getAsLong()), "--tmpfs", dest)
              : List.of("--tmpfs", dest);
      case REMOUNT_READ_ONLY -> List.of("--remount-ro", dest);
    };
  }
}
