package dev.capability.kernel.core.internal.audit;

/** How one path differs between two snapshots. A path can carry more than one kind. */
public enum ChangeKind {
  /** The path did not exist before. */
  CREATED,
  /**
   * The content changed, or may have: a regular file (or an opaque Git object directory) whose
   * size, inode, modification time, content hash, or unexplained change time differs.
   */
  MODIFIED,
  /** The path no longer exists. */
  DELETED,
  /** The POSIX permission bits changed (not reported for symbolic links, whose mode is fixed). */
  MODE_CHANGED,
  /** The entry type changed, for example a file replaced by a directory. */
  TYPE_CHANGED,
  /** A symbolic link now points somewhere else. */
  RETARGETED
}
